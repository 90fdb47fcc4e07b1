import {
  removeExpiredCredentials,
  reportIfDatabaseUnavailable,
  type ServiceContext,
} from '@firebreak/services';

/**
 * Periodic clean-up that needs no queue: expired login sessions and setup tokens are deleted so the
 * tables do not grow without bound. Several workers may run it at once; the delete is idempotent.
 */
export function startHousekeeping(ctx: ServiceContext, intervalMs = 60 * 60 * 1000): { stop(): void } {
  const run = async () => {
    try {
      await removeExpiredCredentials(ctx);
    } catch (error) {
      // A database outage is logged once by the failure log; try again next time.
      if (!reportIfDatabaseUnavailable(ctx, error)) ctx.logger.error({ err: error }, 'housekeeping failed');
    }
  };
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  void run();
  return { stop: () => clearInterval(timer) };
}
