import type { ChatEntry } from '@firebreak/services';
import { describe, expect, it } from 'vitest';
import { renderEntry } from './messages';

// The channel hears how a page was acknowledged without logging in (docs/paging.md#acknowledge-links).
const acknowledged = (data: Record<string, unknown>): ChatEntry => ({
  id: '00000000-0000-4000-8000-000000000001',
  seq: '7',
  incident_id: '00000000-0000-4000-8000-000000000002',
  type: 'status_changed',
  actor_type: 'user',
  actor_name: 'Noa',
  actor_slack_user_id: null,
  commander_slack_user_id: null,
  data: { from: 'triggered', to: 'acknowledged', ...data },
  created_at: new Date('2026-11-21T10:00:00Z'),
});

describe('an acknowledgement in the channel', () => {
  it('names the way a page was acknowledged, and nothing for the UI or chat', () => {
    expect(renderEntry(acknowledged({ via: 'sms' })).text).toBe('👀 *Acknowledged* by *Noa* (by SMS).');
    expect(renderEntry(acknowledged({ via: 'link' })).text).toBe(
      '👀 *Acknowledged* by *Noa* (by the page’s link).',
    );
    expect(renderEntry(acknowledged({})).text).toBe('👀 *Acknowledged* by *Noa*.');
  });
});
