import {
  fireDueHeartbeats,
  reportIfDatabaseUnavailable,
  type ServiceContext,
  settleDisabledHeartbeats,
} from '@firebreak/services';

export interface RunningHeartbeatReconciler {
  /** One pass; answers how many heartbeats it reported missed. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Every `intervalMs`, raises the missed alert of every heartbeat whose deadline has passed, and settles
 * heartbeats disabled without being settled (docs/integrations/heartbeats.md). Deadlines are rows, so
 * there is no wake-up job at all: the pass is the only timer, it needs no Redis, and any number of
 * workers may run it at once (each deadline is claimed under a row lock).
 */
export function startHeartbeatReconciler(ctx: ServiceContext, intervalMs = 1000): RunningHeartbeatReconciler {
  let running: Promise<number> | undefined;
  const runOnce = () => {
    running ??= (async () => {
      const fired = await fireDueHeartbeats(ctx);
      await settleDisabledHeartbeats(ctx);
      return fired;
    })()
      .catch((error: Error) => {
        // A database outage would otherwise log a line every second.
        if (!reportIfDatabaseUnavailable(ctx, error)) {
          ctx.logger.warn({ err: error }, 'heartbeat reconciler pass failed');
        }
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
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
