import type { Queryable } from './client';

/**
 * Whether PostgreSQL knows a time zone by this name. It has zone data of its own (its build's, or the
 * system's), which can differ from Node's: a zone Node accepts but PostgreSQL does not would make every
 * statement that computes in it fail (analytics' wall clocks, docs/analytics.md#out-of-hours). Names are
 * matched without regard to case, as PostgreSQL itself matches them. The view reads the zone directory,
 * tens of milliseconds: for saving a schedule, not for reads.
 */
export async function isKnownTimeZone(sql: Queryable, name: string): Promise<boolean> {
  const [row] = await sql<{ known: boolean }[]>`
    select exists (select 1 from pg_timezone_names where lower(name) = lower(${name})) as known`;
  return row!.known;
}
