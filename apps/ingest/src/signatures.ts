import { hmacMatches, safeEqual } from '@firebreak/http';

/** How far a signed `X-Service-Timestamp` may be from our clock, either way (a replay window). */
export const GENERIC_TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

export interface GenericSignatureHeaders {
  signature: string | undefined;
  timestamp: string | undefined;
}

/**
 * The generic webhook's signature (docs/integrations/alert-webhooks.md#generic):
 * `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256>`, either of the raw body alone, or — when
 * `X-Service-Timestamp: <unix seconds>` is sent — of `<timestamp>.<body>`, accepted only within five
 * minutes of now. A captured request without a timestamp can be replayed for ever; one with a
 * timestamp only briefly, so senders that can should send it. The plain form stays accepted for the
 * senders already configured with it.
 */
export function genericSignatureMatches(
  secret: string,
  rawBody: string,
  headers: GenericSignatureHeaders,
  now: Date,
): boolean {
  const { signature, timestamp } = headers;
  if (!signature?.startsWith('sha256=')) return false;
  const hex = signature.slice('sha256='.length);
  if (timestamp === undefined) return hmacMatches(secret, rawBody, hex);
  // The header selects the form: a stale or malformed timestamp is a refusal, never a retry as the
  // plain form (a sender that signs with timestamps never signs the plain form).
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  const skew = Math.abs(now.getTime() / 1000 - Number(timestamp));
  if (skew > GENERIC_TIMESTAMP_TOLERANCE_SECONDS) return false;
  return hmacMatches(secret, `${timestamp}.${rawBody}`, hex);
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
