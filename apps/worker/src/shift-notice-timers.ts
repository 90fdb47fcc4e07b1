import {
  planAllShiftNotices,
  queueDueShiftNotices,
  reportIfDatabaseUnavailable,
  type ServiceContext,
} from '@firebreak/services';

export interface RunningShiftNoticeTimers {
  /** One pass: plan when a planning round is due (or `plan`), then queue the due notices. */
  runOnce(options?: { plan?: boolean }): Promise<number>;
  stop(): Promise<void>;
}

/** Rotations turn by themselves; planning every minute keeps the 48-hour horizon ahead of them. */
const PLAN_EVERY_MS = 60_000;

/**
 * The shift-notice timer (docs/schedules.md#shift-notices). Notices are rows: every `intervalMs` the
 * due ones are claimed `for update skip locked` and their chat job queued through the outbox in the
 * same transaction. No wake-up job exists, so a Redis restarted empty loses no notice, and any number of
 * workers may run the pass at once.
 */
export function startShiftNoticeTimers(ctx: ServiceContext, intervalMs = 1000): RunningShiftNoticeTimers {
  let running: Promise<number> | undefined;
  let lastPlan = Number.NEGATIVE_INFINITY;
  const runOnce = async (options: { plan?: boolean } = {}): Promise<number> => {
    // A pass asked to plan must not be answered by a timer's pass already under way, which may not
    // plan (and read the clock before the caller moved it): it waits for that one, then runs its own.
    if (options.plan && running) await running;
    running ??= (async () => {
      const now = ctx.now().getTime();
      if (options.plan || now - lastPlan >= PLAN_EVERY_MS) {
        lastPlan = now;
        // Planning that fails must not stop the notices already planned from going out.
        await planAllShiftNotices(ctx).catch((error: Error) => report(error));
      }
      return queueDueShiftNotices(ctx);
    })()
      .catch((error: Error) => {
        report(error);
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const report = (error: Error) => {
    if (!reportIfDatabaseUnavailable(ctx, error)) ctx.logger.warn({ err: error }, 'shift notice pass failed');
  };
  const timer = setInterval(() => void runOnce(), intervalMs);
  return {
    runOnce,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
