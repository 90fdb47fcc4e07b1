import { describe, expect, it } from 'vitest';
import { entryText } from './timeline-text';

// A page acknowledged from a link, a text, a call or a push notification says so, as chat does.
describe('a status change’s text', () => {
  it('names the way a page was acknowledged', () => {
    const acknowledged = (via?: string) =>
      entryText({ type: 'status_changed', data: { from: 'triggered', to: 'acknowledged', via } });
    expect(acknowledged('sms')).toBe('triggered → acknowledged (by SMS)');
    expect(acknowledged('voice')).toBe('triggered → acknowledged (by phone)');
    expect(acknowledged('push')).toBe('triggered → acknowledged (by push notification)');
    expect(acknowledged('link')).toBe('triggered → acknowledged (by the page’s link)');
    // Through the UI, the API or chat: no way to name; an unknown one is left out.
    expect(acknowledged()).toBe('triggered → acknowledged');
    expect(acknowledged('carrier-pigeon')).toBe('triggered → acknowledged');
  });

  it('keeps the time to resolve on a resolution', () => {
    expect(
      entryText({ type: 'status_changed', data: { from: 'acknowledged', to: 'resolved', mttr_seconds: 90 } }),
    ).toMatch(/^acknowledged → resolved — time to resolve /);
  });
});
