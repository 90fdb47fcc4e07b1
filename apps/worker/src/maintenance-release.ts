import { releaseEndedWindows, reportIfDatabaseUnavailable, type ServiceContext } from '@firebreak/services';

export interface RunningMaintenanceRelease {
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Every `intervalMs`, releases the alerts of maintenance windows that have ended
 * (docs/api.md#maintenance-windows). The end is a column, not a job, so a worker that was down releases
 * them when it is back; any number of workers may run this, each window is released once.
 */
export function startMaintenanceRelease(ctx: ServiceContext, intervalMs = 1000): RunningMaintenanceRelease {
  let running: Promise<number> | undefined;
  const runOnce = () => {
    running ??= releaseEndedWindows(ctx)
      .catch((error: Error) => {
        // A database outage would otherwise log a line every second.
        if (!reportIfDatabaseUnavailable(ctx, error)) {
          ctx.logger.warn({ err: error }, 'maintenance release pass failed');
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
