import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { passwordHashSlots } from './hash-slots';

/**
 * scrypt from Node's own crypto (OpenSSL): memory-hard, no native add-on to build. Parameters are
 * stored with each hash so they can be raised later without invalidating existing passwords.
 * N=2^15, r=8 costs 32 MiB and roughly 100 ms per hash.
 */
const params = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;

// Every hash, made or checked, takes one of the process's few slots (hash-slots.ts).
function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return passwordHashSlots.run(
    () =>
      new Promise((resolve, reject) => {
        scrypt(password, salt, KEY_LENGTH, { ...options, maxmem: 128 * 1024 * 1024 }, (error, key) =>
          error ? reject(error) : resolve(key),
        );
      }),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
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
