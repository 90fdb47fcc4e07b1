import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A code is good for 10 minutes and 5 tries (docs/paging.md#verification). */
export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
/** One code a minute per contact method, 10 an hour per person; wrong tries count for the hour. */
export const CODE_COOLDOWN_MS = 60 * 1000;
export const CODE_SENDS_PER_HOUR = 10;
export const CODE_WINDOW_MS = 60 * 60 * 1000;

/** A fresh nonce for a new code. */
export function newCodeNonce(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * The 6-digit code of a contact method's nonce. Derived, not stored: the row keeps only the code's
 * digest and the nonce, and the job that sends it derives it again from the paging key, so the code
 * itself is written nowhere (not the outbox, not Redis, not a log).
 */
export function deriveVerificationCode(key: Buffer, contactMethodId: string, nonce: string): string {
  const mac = createHmac('sha256', key).update(`verify:${contactMethodId}:${nonce}`).digest();
  return String(mac.readUInt32BE(0) % 1_000_000).padStart(6, '0');
}

export function digestCode(contactMethodId: string, code: string): string {
  return createHash('sha256').update(`${contactMethodId}:${code}`).digest('hex');
}

export function codeMatches(digest: string, contactMethodId: string, code: string): boolean {
  const given = Buffer.from(digestCode(contactMethodId, code), 'hex');
  const stored = Buffer.from(digest, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
