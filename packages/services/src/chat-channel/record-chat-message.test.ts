import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIncident } from '../incidents/create';
import { updateSettings } from '../settings/update';
import { createTestContext, type TestContext } from '../testing/context';
import { recordChatMessage } from './record-chat-message';

// A chat message racing the incident's resolution (docs/chat.md#messages-on-the-timeline): it lands
// before the resolution or not at all, never on the sealed timeline after it.
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  await updateSettings(t.ctx, { chat_timeline_sync: true });
});
afterAll(() => t.cleanup());

const actor = { type: 'user' as const, name: 'tester' };

describe('recordChatMessage', () => {
  it('waits for a resolution in progress and then takes no entry', async () => {
    const incident = await createIncident(t.ctx, actor, { title: 'Racing', severity: 'high' });
    await t.ctx.sql`
      insert into chat_channels (incident_id, platform, channel_id) values (${incident.id}, 'slack', 'C0RACE001')`;
    // The resolution's transaction has changed the row and not committed yet.
    const resolving = await t.ctx.sql.reserve();
    try {
      await resolving`begin`;
      await resolving`update incidents set status = 'resolved', resolved_at = now() where id = ${incident.id}`;
      const recording = recordChatMessage(t.ctx, {
        channelId: 'C0RACE001',
        chatUserId: 'U0ALICE01',
        text: 'one last thing',
        ts: '1700000900.000100',
      });
      // Until the message is seen waiting on the incident's row (or, without the lock, recorded).
      let settled = false;
      const waiting = async () => {
        while (!settled) {
          const [row] = await resolving<{ n: number }[]>`
            select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`;
          if (row!.n > 0) return;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      await Promise.race([recording, waiting()]);
      settled = true;
      await resolving`commit`;
      expect(await recording).toBe('incident_resolved');
    } finally {
      resolving.release();
    }
    const entries = await t.ctx.sql`
      select 1 from timeline_entries where incident_id = ${incident.id} and type = 'chat_message'`;
    expect(entries).toHaveLength(0);
  });

  it('records a message of an open incident once', async () => {
    const incident = await createIncident(t.ctx, actor, { title: 'Open', severity: 'high' });
    await t.ctx.sql`
      insert into chat_channels (incident_id, platform, channel_id) values (${incident.id}, 'slack', 'C0OPEN001')`;
    const message = {
      channelId: 'C0OPEN001',
      chatUserId: 'U0ALICE01',
      text: 'on it',
      ts: '1700000900.000200',
    };
    expect(await recordChatMessage(t.ctx, message)).toBe('recorded');
    expect(await recordChatMessage(t.ctx, message)).toBe('duplicate');
  });
});
