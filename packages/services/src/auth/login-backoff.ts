import { createHash } from 'node:crypto';
import { loginFailures, type Queryable } from '@firebreak/db';
import { AppError } from '@firebreak/schema';

/**
 * Per-account backoff against password guessing (docs/api.md#authentication). The per-address rate
 * limit alone lets a botnet try one account from many addresses; this counts per e-mail address
 * instead. Five failures are free (typos); then each failure refuses logins for that address for
 * 30 s, doubling per further failure up to 15 minutes, so a guesser gets a few tries an hour while a
 * locked-out owner waits at most a quarter of an hour. Unknown addresses are counted exactly like
 * known ones, so the 429 tells nobody which addresses exist. A success starts the count again; a
 * count untouched for a day is forgotten.
 */
export const loginFailurePolicy: loginFailures.FailurePolicy = {
  freeAttempts: 5,
  baseDelayMs: 30_000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 24 * 60 * 60_000,
};

/** The key of an address: a digest, since what people type as an e-mail is sometimes a password. */
export function emailDigest(email: string): Buffer {
  return createHash('sha256').update(email.trim().toLowerCase()).digest();
}

/** 429 `rate_limited` with `Retry-After` while the address is refused; checked before any hashing. */
export async function refuseWhileLocked(sql: Queryable, digest: Buffer, now: Date): Promise<void> {
  const lockedUntil = await loginFailures.findLockedUntil(sql, digest, now);
  if (!lockedUntil) return;
  throw new AppError('rate_limited', 'Too many failed logins for this e-mail address; try again later.', {
    retry_after_seconds: Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000)),
  });
}

export async function recordLoginFailure(sql: Queryable, digest: Buffer, now: Date): Promise<void> {
  await loginFailures.recordFailure(sql, digest, now, loginFailurePolicy);
}

export async function clearLoginFailures(sql: Queryable, digest: Buffer): Promise<void> {
  await loginFailures.clearFailures(sql, digest);
}
