import { outbox } from '@firebreak/db';
import { isJobName, type JobQueues, jobCatalog, type PendingJob } from '@firebreak/queue';
import type { ServiceContext } from '../context';
import { retryCutOff } from '../retry-cut-off';

export interface RelayOptions {
  /**
   * Queues whose jobs would do nothing here: only a process that runs their consumer itself and knows
   * it is off may say so (the embedded start without chat). Their rows are marked sent, not enqueued.
   */
  unconsumedQueues?: ReadonlySet<string>;
}

/** Rows moved per round; a full round is followed at once by another. */
export const RELAY_BATCH = 500;

/**
 * Moves committed outbox rows into the queues, oldest first. One relay at a time holds the lock
 * (others find it taken and wait for the next round), so rows reach the queues in the order they were
 * written. Each job's id is derived from its row, so a round that handed jobs to Redis but could not
 * mark its rows (a crash, a lost connection) is harmless when repeated. While Redis is unreachable
 * the enqueue fails, the transaction rolls back and the rows wait. Returns how many rows it moved.
 */
export async function relayOutboxOnce(
  ctx: ServiceContext,
  queues: JobQueues,
  options: RelayOptions = {},
): Promise<number> {
  // Cut off by a failover, the round runs again: rows it did mark sent are not read again, and rows it
  // handed to Redis without marking them are enqueued under the same ids, which BullMQ refuses twice.
  return retryCutOff(ctx, 'outbox relay', () => relayRound(ctx, queues, options));
}

async function relayRound(ctx: ServiceContext, queues: JobQueues, options: RelayOptions): Promise<number> {
  return ctx.sql.begin(async (tx) => {
    if (!(await outbox.tryLockRelay(tx))) return 0;
    const rows = await outbox.listRowsToRelay(tx, RELAY_BATCH);
    if (rows.length === 0) return 0;
    const jobs: PendingJob[] = [];
    const poisoned: Array<{ id: string; error: string }> = [];
    for (const row of rows) {
      // A row no worker could run (unknown job, invalid payload) must not hold up the rows behind it.
      // Rows are typed when written; this catches rows written by an older or newer version.
      if (!isJobName(row.job_name)) {
        poisoned.push({ id: row.id, error: `unknown job ${row.job_name}` });
        continue;
      }
      const invalid = jobCatalog[row.job_name].payload.safeParse(row.payload).error;
      if (invalid) {
        poisoned.push({ id: row.id, error: invalid.message });
        continue;
      }
      // A queue nobody consumes (chat without a bot token, known to this process): its consumer would
      // complete the job at once and do nothing, so the row is marked sent without the round trip.
      if (options.unconsumedQueues?.has(jobCatalog[row.job_name].queue)) continue;
      jobs.push({
        name: row.job_name,
        payload: row.payload,
        options: { jobId: `outbox-${row.id}`, delayMs: row.delay_ms },
      });
    }
    await queues.enqueueMany(jobs);
    await outbox.markOutboxSent(
      tx,
      rows.map((row) => row.id),
    );
    for (const bad of poisoned) {
      // Marked sent so it blocks nothing, but it must not go unnoticed.
      await outbox.recordOutboxError(tx, bad.id, bad.error);
      ctx.logger.error({ outbox_id: bad.id, err: { message: bad.error } }, 'outbox row cannot be relayed');
    }
    return rows.length;
  });
}
