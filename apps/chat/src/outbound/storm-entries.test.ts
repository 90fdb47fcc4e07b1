import type { ChatEntry } from '@firebreak/services';
import { describe, expect, it } from 'vitest';
import { CHANNEL_ENTRY_TYPES, renderEntry } from './messages';

// A storm incident's channel says what it is and when it is over (docs/api.md#storm-mode).
const entry = (type: ChatEntry['type'], data: Record<string, unknown>): ChatEntry => ({
  id: '00000000-0000-4000-8000-000000000001',
  seq: '3',
  incident_id: '00000000-0000-4000-8000-000000000002',
  type,
  actor_type: 'system',
  actor_name: 'alert intake',
  actor_slack_user_id: null,
  commander_slack_user_id: null,
  data,
  created_at: new Date('2026-11-24T10:00:00Z'),
});

describe('storm entries in the channel', () => {
  it('are posted, with the threshold that started the storm and what joined it', () => {
    expect(CHANNEL_ENTRY_TYPES).toEqual(expect.arrayContaining(['storm_started', 'storm_calmed']));
    expect(
      renderEntry(entry('storm_started', { threshold_incidents: 10, window_minutes: 5 })).text,
    ).toContain('more than 10 incidents opened within 5 minutes');
    expect(renderEntry(entry('storm_calmed', { absorbed_alerts: 42, reason: 'quiet' })).text).toContain(
      '42 alerts joined it',
    );
  });
});
