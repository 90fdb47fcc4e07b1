import { type Queryable, timeZones } from '@firebreak/db';
import { AppError } from '@firebreak/schema';

/**
 * A schedule's time zone must be one PostgreSQL knows as well as Node: the schema checks it against
 * Node's zone data, and PostgreSQL, which computes analytics' wall clocks in it
 * (docs/analytics.md#out-of-hours), has its own. 400 at `timezone` before anything is written.
 */
export async function requireKnownTimeZone(sql: Queryable, timezone: string): Promise<void> {
  if (await timeZones.isKnownTimeZone(sql, timezone)) return;
  throw new AppError('validation_failed', 'The request is not valid.', [
    {
      path: 'timezone',
      message: `the database does not know the time zone "${timezone}"; choose another name for the same zone`,
    },
  ]);
}
