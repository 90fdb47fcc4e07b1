import { outbox } from '@firebreak/db';
import { createJobQueues } from '@firebreak/queue';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../testing/context';
import { relayOutboxOnce } from './relay-outbox';

// A queue nobody consumes (chat while it is off, known to the embedded start) is not worth a trip to
// Redis: its rows are marked sent, the others enqueued as always.
let t: TestContext;
beforeEach(async () => {
  t = await createTestContext();
});
afterEach(() => t.cleanup());

const incidentId = '00000000-0000-4000-8000-000000000001';

async function writeRows() {
  await outbox.insertOutboxRows(t.ctx.sql, [
    { name: 'chat.open_channel', payload: { incident_id: incidentId }, orderingKey: incidentId },
    { name: 'webhook.deliver', payload: { webhook_id: incidentId, incident_id: incidentId } },
  ]);
}

describe('relaying the outbox', () => {
  it('marks the rows of an unconsumed queue sent without enqueueing them', async () => {
    const queues = createJobQueues(t.ctx.redis, t.ctx.redisPrefix);
    try {
      await writeRows();
      expect(await relayOutboxOnce(t.ctx, queues, { unconsumedQueues: new Set(['chat']) })).toBe(2);
      const depths = await queues.depths();
      expect(depths.chat.waiting).toBe(0);
      expect(depths.webhooks.waiting).toBe(1);
      const pending = await t.ctx.sql`select 1 from outbox where sent_at is null`;
      expect(pending).toHaveLength(0);

      // Without the option (a worker running alone), chat rows are enqueued as always.
      await writeRows();
      await relayOutboxOnce(t.ctx, queues);
      expect((await queues.depths()).chat.waiting).toBe(1);
    } finally {
      await queues.close();
    }
  });
});
