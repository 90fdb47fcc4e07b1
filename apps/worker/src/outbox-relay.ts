import { isJobName, type JobName, type JobQueues, jobCatalog, type PendingJob } from '@firebreak/queue';
import { reportIfDatabaseUnavailable, type ServiceContext } from '@firebreak/services';

// Any constant; only one relay works at a time, so the queue receives rows in outbox order.
const RELAY_LOCK_KEY = 7_305_111_003;
const BATCH = 500;

interface OutboxRow {
  id: string;
  job_name: string;
  payload: Record<string, unknown>;
  /** How long until the row is due, by the database's clock (which also wrote `available_at`). */
  delay_ms: number;
}

/**
 * Moves committed outbox rows into the queues (ARCHITECTURE.md "Durability"), oldest first. One relay
 * at a time holds the lock (others find it taken and wait for the next round), so rows reach the
 * queues in the order they were written. Each job's id is derived from its row, so a round that handed
 * jobs to Redis but could not mark its rows (a crash, a lost connection) is harmless when repeated.
 * While Redis is unreachable the enqueue fails, the transaction rolls back and the rows wait.
 */
export async function relayOutboxOnce(ctx: ServiceContext, queues: JobQueues): Promise<number> {
  return ctx.sql.begin(async (tx) => {
    const [lock] = await tx<
      { locked: boolean }[]
    >`select pg_try_advisory_xact_lock(${RELAY_LOCK_KEY}) as locked`;
    if (!lock?.locked) return 0;
    const rows = await tx<OutboxRow[]>`
      select id, job_name, payload,
             greatest(0, extract(epoch from (available_at - now())) * 1000)::int as delay_ms
      from outbox where sent_at is null order by id limit ${BATCH}`;
    if (rows.length === 0) return 0;
    const jobs: PendingJob[] = [];
    const poisoned: Array<{ id: string; error: string }> = [];
    for (const row of rows) {
      // A row no worker could run (unknown job, invalid payload) must not hold up the rows behind it.
      const problem = !isJobName(row.job_name)
        ? `unknown job ${row.job_name}`
        : jobCatalog[row.job_name].payload.safeParse(row.payload).error?.message;
      if (problem) {
        poisoned.push({ id: row.id, error: problem });
        continue;
      }
      jobs.push({
        name: row.job_name as JobName,
        payload: row.payload,
        options: { jobId: `outbox-${row.id}`, delayMs: row.delay_ms },
      });
    }
    await queues.enqueueMany(jobs);
    await tx`update outbox set sent_at = now(), attempts = attempts + 1 where id = any(${rows.map((r) => r.id)})`;
    for (const bad of poisoned) {
      // Marked sent so it blocks nothing, but it must not go unnoticed.
      await tx`update outbox set last_error = ${bad.error} where id = ${bad.id}`;
      ctx.logger.error({ outbox_id: bad.id, error: bad.error }, 'outbox row cannot be relayed');
    }
    return rows.length;
  });
}

export interface RunningRelay {
  /** Relays now instead of at the next tick (tests, shutdown). */
  flush(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Relays whenever the database says rows arrived (LISTEN/NOTIFY, see migration 0005) and at least
 * every `intervalMs` (a missed notification, rows that waited out a Redis outage).
 */
export async function startOutboxRelay(
  ctx: ServiceContext,
  queues: JobQueues,
  intervalMs = 1000,
): Promise<RunningRelay> {
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = false;
  let failing = false;
  const run = (): Promise<number> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      do {
        again = false;
        try {
          let moved: number;
          do {
            moved = await relayOutboxOnce(ctx, queues);
            total += moved;
          } while (moved === BATCH && !stopped);
          if (failing) ctx.logger.info('outbox relay: queue reachable again, relaying');
          failing = false;
        } catch (error) {
          if (reportIfDatabaseUnavailable(ctx, error)) continue;
          // Logged once per outage, not once per tick; the rows are safe in PostgreSQL meanwhile.
          if (!failing)
            ctx.logger.warn(
              { err: { message: (error as Error).message } },
              'outbox relay: waiting for the queue',
            );
          failing = true;
        }
      } while (again && !stopped);
      return total;
    })().finally(() => {
      running = undefined;
    });
    return running;
  };
  const listener = await ctx.sql.listen('firebreak_outbox', () => void run()).catch(() => undefined);
  const timer = setInterval(() => void run(), intervalMs);
  void run();
  return {
    flush: run,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await listener?.unlisten().catch(() => {});
      await running;
    },
  };
}
