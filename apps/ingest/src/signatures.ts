import { createHmac, timingSafeEqual } from 'node:crypto';

/** Constant-time comparison of two strings of any length (length differences return false early). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function hmacSha256Hex(secret: string, message: string): string {
  return createHmac('sha256', secret).update(message).digest('hex');
}

/** Spec §5.2: `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of the raw body>`. */
export function genericSignatureMatches(
  secret: string,
  rawBody: string,
  header: string | undefined,
): boolean {
  if (!header?.startsWith('sha256=')) return false;
  return safeEqual(header.slice('sha256='.length), hmacSha256Hex(secret, rawBody));
}

/** Grafana: hex(HMAC-SHA256(secret, [timestamp ":"] body)) (reference §2.1). */
export function grafanaSignatureMatches(
  secret: string,
  rawBody: string,
  signature: string | undefined,
  timestamp: string | undefined,
): boolean {
  if (!signature) return false;
  const message = timestamp === undefined ? rawBody : `${timestamp}:${rawBody}`;
  return safeEqual(signature.toLowerCase(), hmacSha256Hex(secret, message));
}

/** Alertmanager's `Authorization: Bearer <token>` (it cannot sign; reference §1.1). */
export function bearerMatches(expected: string, header: string | undefined): boolean {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match !== null && safeEqual(match[1]!, expected);
}
