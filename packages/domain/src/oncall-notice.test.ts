import { describe, expect, it } from 'vitest';
import { scheduleTime, shiftLasts } from './oncall-notice';

describe('scheduleTime', () => {
  it('names the zone as people say it, in America and Europe alike', () => {
    expect(scheduleTime(new Date('2026-01-05T14:00:00Z'), 'America/New_York')).toBe('Mon 5 Jan, 09:00 EST');
    expect(scheduleTime(new Date('2026-07-06T14:00:00Z'), 'America/New_York')).toBe('Mon 6 Jul, 10:00 EDT');
    expect(scheduleTime(new Date('2026-01-05T08:00:00Z'), 'Europe/Berlin')).toBe('Mon 5 Jan, 09:00 CET');
    expect(scheduleTime(new Date('2026-07-06T08:00:00Z'), 'Europe/London')).toBe('Mon 6 Jul, 09:00 BST');
  });

  it('falls back to the IANA name where English has no short one, never a bare offset', () => {
    expect(scheduleTime(new Date('2026-01-05T00:00:00Z'), 'Asia/Tokyo')).toBe('Mon 5 Jan, 09:00 Asia/Tokyo');
    expect(scheduleTime(new Date('2026-01-05T09:00:00Z'), 'UTC')).toBe('Mon 5 Jan, 09:00 UTC');
  });
});

describe('shiftLasts', () => {
  const from = new Date('2026-01-05T08:00:00Z');
  const searched = new Date('2026-01-19T08:00:00Z');

  it('gives the end when it was found', () => {
    expect(shiftLasts(from, new Date('2026-01-06T08:00:00Z'), searched, 'Europe/Berlin')).toBe(
      'until Tue 6 Jan, 09:00 CET',
    );
  });

  it('gives no end time for a shift that runs past the search, only how long it lasts at least', () => {
    expect(shiftLasts(from, searched, searched, 'Europe/Berlin')).toBe('for at least 14 days');
    expect(shiftLasts(from, undefined, searched, 'Europe/Berlin')).toBe('for at least 14 days');
  });
});
