import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import pLimit from 'p-limit';
import { passwordHashSlots } from './hash-slots';

/**
 * scrypt from Node's own crypto (OpenSSL): memory-hard, no native add-on to build. Parameters are
 * stored with each hash so they can be raised later without invalidating existing passwords.
 * N=2^15, r=8 costs 32 MiB and roughly 100 ms per hash.
 */
const params = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;

// Every hash, made or checked, takes one of the process's few slots (hash-slots.ts).
function derive(password: string, salt: Buffer, options: ScryptOptions, maxWaitMs?: number): Promise<Buffer> {
  return passwordHashSlots.run(
    () =>
      new Promise((resolve, reject) => {
        scrypt(password, salt, KEY_LENGTH, { ...options, maxmem: 128 * 1024 * 1024 }, (error, key) =>
          error ? reject(error) : resolve(key),
        );
      }),
    maxWaitMs,
  );
}

export async function hashPassword(password: string, maxWaitMs?: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params, maxWaitMs);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

// Two of the four slots at most: people logging in during an import still find slots free.
const BULK_HASHES_AT_ONCE = 2;

/**
 * Hashes of `count` generated passwords, for accounts made in bulk (an import's users). Two at a time,
 * each waiting its turn for a slot however long: hashed all at once, every hash past the first few
 * waited in the slots' queue and an import of a hundred people was refused as "busy" (each hash takes
 * about 100 ms, the queue gives up after 2 s).
 */
export function hashGeneratedPasswords(count: number): Promise<string[]> {
  const limit = pLimit(BULK_HASHES_AT_ONCE);
  return Promise.all(
    Array.from({ length: count }, () =>
      limit(() => hashPassword(generatePassword(), Number.POSITIVE_INFINITY)),
    ),
  );
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

// Verified against when the e-mail is unknown, so a login takes as long either way and does not
// tell an attacker which addresses exist.
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  // A refusal (no free hash slot) must not be remembered as the decoy.
  decoyHash ??= hashPassword(randomBytes(16).toString('hex')).catch((error: unknown) => {
    decoyHash = undefined;
    throw error;
  });
  return decoyHash;
}

/** A password for a generated account: 24 characters of base64url (144 bits). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
