import type { Queryable } from './client';

/**
 * Login attempts per key (migration 0015, docs/api.md#authentication): the services key a count by the
 * digest of an e-mail address alone or of the address with the client's address, and decide the
 * numbers. This module only counts, atomically, so concurrent attempts in several processes each add
 * one. (The column is still called `email_digest`: renaming it would need a migration for nothing.)
 */

export interface FailurePolicy {
  /** Attempts allowed before the first refusal. */
  freeAttempts: number;
  /** The first delay; each further attempt doubles it. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A count whose last attempt is older than this starts again from zero. */
  forgetAfterMs: number;
}

export type AttemptResult = { allowed: true } | { allowed: false; lockedUntil: Date };

/**
 * Counts one attempt unless the key is refused right now, in one statement: of a concurrent burst,
 * exactly the attempts left before the refusal get through, however they interleave. From the
 * `freeAttempts`-th attempt on, each one refuses the key for base · 2^(attempts − free), capped; a
 * refused attempt is not counted. A successful login then clears the key (`clearFailures`), so only
 * failures keep counting.
 */
export async function recordAttempt(
  sql: Queryable,
  key: Buffer,
  now: Date,
  policy: FailurePolicy,
): Promise<AttemptResult> {
  const forgetBefore = new Date(now.getTime() - policy.forgetAfterMs);
  const free = policy.freeAttempts;
  // The new count appears several times, since an upsert cannot name its own result. The `where` makes
  // the update (and so the `returning`) not happen while the key is refused.
  const [row] = await sql<{ failures: number }[]>`
    insert into login_failures as f (email_digest, failures, last_failed_at, locked_until)
    values (${key}, 1, ${now},
            case when 1 >= ${free} then ${now}::timestamptz + make_interval(secs => ${policy.baseDelayMs}::float8 / 1000) end)
    on conflict (email_digest) do update set
      failures = case when f.last_failed_at < ${forgetBefore} then 1 else f.failures + 1 end,
      last_failed_at = excluded.last_failed_at,
      locked_until = case
        when (case when f.last_failed_at < ${forgetBefore} then 1 else f.failures + 1 end) >= ${free}
          then ${now}::timestamptz + make_interval(secs => least(
            ${policy.baseDelayMs}::float8 * power(2, least(
              (case when f.last_failed_at < ${forgetBefore} then 1 else f.failures + 1 end) - ${free}, 30)),
            ${policy.maxDelayMs}::float8) / 1000)
        end
      where f.locked_until is null or f.locked_until <= ${now}
    returning failures`;
  if (row) return { allowed: true };
  const [locked] = await sql<{ locked_until: Date | null }[]>`
    select locked_until from login_failures where email_digest = ${key}`;
  // Cleared by a success between the two statements: refuse this once, for the shortest time.
  return { allowed: false, lockedUntil: locked?.locked_until ?? new Date(now.getTime() + 1000) };
}

/** A successful login starts the count again. */
export async function clearFailures(sql: Queryable, key: Buffer): Promise<void> {
  await sql`delete from login_failures where email_digest = ${key}`;
}

/** Housekeeping: counts whose last attempt is older than `before` and no longer refuse anything. */
export async function deleteForgottenFailures(sql: Queryable, before: Date, now: Date): Promise<number> {
  const result = await sql`
    delete from login_failures
    where last_failed_at < ${before} and (locked_until is null or locked_until <= ${now})`;
  return result.count;
}
