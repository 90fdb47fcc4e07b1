import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The one place request signatures are computed and compared: the inbound webhooks (generic, Grafana),
 * the chat app's request signature, and whatever Firebreak signs itself, so every check is constant
 * time in the same way.
 */
export type HmacAlgorithm = 'sha256' | 'sha512';

/** Lowercase hex HMAC of `data` keyed with `secret`. */
export function hmacHex(secret: string, data: string, algorithm: HmacAlgorithm = 'sha256'): string {
  return createHmac(algorithm, secret).update(data).digest('hex');
}

/**
 * Constant-time string comparison. Only a difference in length returns early, and the length of a
 * signature or token is public anyway.
 */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Whether `signature` is exactly the lowercase hex HMAC of `data`. Callers that accept uppercase hex
 * lowercase it first; anything else (wrong length, not hex) simply does not match.
 */
export function hmacMatches(
  secret: string,
  data: string,
  signature: string,
  algorithm: HmacAlgorithm = 'sha256',
): boolean {
  return safeEqual(signature, hmacHex(secret, data, algorithm));
}
