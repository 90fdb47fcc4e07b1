import { createHash } from 'node:crypto';
import { loginFailures, type Queryable } from '@firebreak/db';
import { AppError } from '@firebreak/schema';

/**
 * Backoff against password guessing (docs/api.md#authentication), in two counts. Per e-mail address and
 * client address: five attempts are free (typos); then each failure refuses that pair for 30 s,
 * doubling up to 15 minutes, so a guesser gets a few tries an hour while someone locking out another
 * person's account only locks out themselves. Per e-mail address across all clients: a ceiling of 100
 * failures an hour, then an hour's refusal, so guessing from many addresses at once stays bounded too.
 * Unknown addresses are counted exactly like known ones, so the 429 tells nobody which exist. A success
 * clears both counts; a count untouched for its forget time starts again.
 */
export const loginFailurePolicy: loginFailures.FailurePolicy = {
  freeAttempts: 5,
  baseDelayMs: 30_000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 24 * 60 * 60_000,
};

export const loginCeilingPolicy: loginFailures.FailurePolicy = {
  freeAttempts: 100,
  baseDelayMs: 60 * 60_000,
  maxDelayMs: 60 * 60_000,
  forgetAfterMs: 60 * 60_000,
};

/** The keys of a login: digests, since what people type as an e-mail is sometimes a password. */
export interface LoginKeys {
  /** The e-mail address and the client address: the short backoff. */
  client: Buffer;
  /** The e-mail address alone: the ceiling. */
  account: Buffer;
}

export function loginKeys(email: string, clientAddress: string): LoginKeys {
  const normalized = email.trim().toLowerCase();
  // Distinct prefixes, so no e-mail address's key can equal a pair's.
  return {
    client: createHash('sha256').update(`client\0${normalized}\0${clientAddress}`).digest(),
    account: createHash('sha256').update(`account\0${normalized}`).digest(),
  };
}

/**
 * Counts the attempt before the password is hashed, atomically: a refused guess costs no scrypt, and a
 * concurrent burst cannot slip past the count. 429 `rate_limited` with `Retry-After` when refused.
 */
export async function countLoginAttempt(sql: Queryable, keys: LoginKeys, now: Date): Promise<void> {
  // The pair first: a single client's burst is refused there without using up the account's ceiling.
  for (const [key, policy] of [
    [keys.client, loginFailurePolicy],
    [keys.account, loginCeilingPolicy],
  ] as const) {
    const attempt = await loginFailures.recordAttempt(sql, key, now, policy);
    if (!attempt.allowed) {
      throw new AppError('rate_limited', 'Too many failed logins for this e-mail address; try again later.', {
        retry_after_seconds: Math.max(1, Math.ceil((attempt.lockedUntil.getTime() - now.getTime()) / 1000)),
      });
    }
  }
}

export async function clearLoginFailures(sql: Queryable, keys: LoginKeys): Promise<void> {
  await loginFailures.clearFailures(sql, keys.client);
  await loginFailures.clearFailures(sql, keys.account);
}
