import type { JobQueues } from '@firebreak/queue';
import {
  RELAY_BATCH,
  type RelayOptions,
  relayOutboxOnce,
  reportIfDatabaseUnavailable,
  type ServiceContext,
} from '@firebreak/services';

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
  options: RelayOptions = {},
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
            moved = await relayOutboxOnce(ctx, queues, options);
            total += moved;
          } while (moved === RELAY_BATCH && !stopped);
          if (failing) ctx.logger.info('outbox relay: queue reachable again, relaying');
          failing = false;
        } catch (error) {
          if (reportIfDatabaseUnavailable(ctx, error)) continue;
          // Logged once per outage, not once per tick; the rows are safe in PostgreSQL meanwhile.
          if (!failing) ctx.logger.warn({ err: error }, 'outbox relay: waiting for the queue');
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
