import { describeDatabaseFailure, isDatabaseUnavailable } from '@firebreak/db';
import type { ServiceContext } from '../context';

/**
 * For loops that run whatever happens (reconciler, relay, housekeeping): a database outage is reported
 * to `ctx.failures` (logged once per change of state) and answers true; any other error answers false
 * and is the caller's to log.
 */
export function reportIfDatabaseUnavailable(ctx: Pick<ServiceContext, 'failures'>, error: unknown): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  ctx.failures.failed('database', describeDatabaseFailure(error));
  return true;
}
