import { randomBytes } from 'node:crypto';

/**
 * An intake key: 256 random bits, base64url (URL-safe, no padding), so it can sit in a path as is. It is
 * the sender's only credential (docs/integrations/keyed-intake.md), hence far more than guessable.
 */
export function generateIntakeKey(): string {
  return randomBytes(32).toString('base64url');
}

const SHOWN_CHARACTERS = 4;

/** What members and viewers see of a key: enough to tell keys apart, not enough to post with. */
export function maskKey(key: string): string {
  return `${key.slice(0, SHOWN_CHARACTERS)}…`;
}
