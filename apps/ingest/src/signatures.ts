import { hmacMatches, safeEqual } from '@firebreak/http';

/** The generic webhook's `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of the raw body>`. */
export function genericSignatureMatches(
  secret: string,
  rawBody: string,
  header: string | undefined,
): boolean {
  if (!header?.startsWith('sha256=')) return false;
  return hmacMatches(secret, rawBody, header.slice('sha256='.length));
}

/** Grafana: hex(HMAC-SHA256(secret, [timestamp ":"] body)), in either case. */
export function grafanaSignatureMatches(
  secret: string,
  rawBody: string,
  signature: string | undefined,
  timestamp: string | undefined,
): boolean {
  if (!signature) return false;
  const message = timestamp === undefined ? rawBody : `${timestamp}:${rawBody}`;
  return hmacMatches(secret, message, signature.toLowerCase());
}

/** Alertmanager's `Authorization: Bearer <token>` (it cannot sign). */
export function bearerMatches(expected: string, header: string | undefined): boolean {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match !== null && safeEqual(match[1]!, expected);
}
