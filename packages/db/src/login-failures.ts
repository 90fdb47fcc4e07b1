import type { Queryable } from './client';

/**
 * Failed logins per e-mail address (migration 0015, docs/api.md#authentication), keyed by the digest
 * of the lower-cased address. The services decide the numbers; this module only counts atomically, so
 * concurrent failures in several processes each add one.
 */

/** Until when logins for this address are refused; undefined when they are not. */
export async function findLockedUntil(
  sql: Queryable,
  emailDigest: Buffer,
  now: Date,
): Promise<Date | undefined> {
  const [row] = await sql<{ locked_until: Date }[]>`
    select locked_until from login_failures
    where email_digest = ${emailDigest} and locked_until > ${now}`;
  return row?.locked_until;
}

export interface FailurePolicy {
  /** Failures allowed before the first refusal. */
  freeAttempts: number;
  /** The first delay; each further failure doubles it. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A count whose last failure is older than this starts again from zero. */
  forgetAfterMs: number;
}

/**
 * Adds one failure and, from the `freeAttempts`-th on, refuses logins for base · 2^(failures − free),
 * capped. One statement, so concurrent failures each count. Returns the new count and the refusal's
 * end (null while under the free attempts).
 */
export async function recordFailure(
  sql: Queryable,
  emailDigest: Buffer,
  now: Date,
  policy: FailurePolicy,
): Promise<{ failures: number; locked_until: Date | null }> {
  const forgetBefore = new Date(now.getTime() - policy.forgetAfterMs);
  const free = policy.freeAttempts;
  // The new count appears twice (the count and the delay), since an upsert cannot name its own result.
  const [row] = await sql<{ failures: number; locked_until: Date | null }[]>`
    insert into login_failures as f (email_digest, failures, last_failed_at, locked_until)
    values (${emailDigest}, 1, ${now},
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
    returning failures, locked_until`;
  return row!;
}

/** A successful login starts the count again. */
export async function clearFailures(sql: Queryable, emailDigest: Buffer): Promise<void> {
  await sql`delete from login_failures where email_digest = ${emailDigest}`;
}

/** Housekeeping: counts whose last failure is older than `before` and no longer refuse anything. */
export async function deleteForgottenFailures(sql: Queryable, before: Date, now: Date): Promise<number> {
  const result = await sql`
    delete from login_failures
    where last_failed_at < ${before} and (locked_until is null or locked_until <= ${now})`;
  return result.count;
}
