import { hmacMatches } from '@firebreak/http';

/** Slack's replay window: a request whose timestamp is further than this from now is refused. */
export const SIGNATURE_WINDOW_SECONDS = 5 * 60;

export type SignatureFailure =
  | 'no_signing_secret'
  | 'missing_headers'
  | 'bad_timestamp'
  | 'stale_timestamp'
  | 'unknown_version'
  | 'mismatch';

export interface SignedRequest {
  /** `X-Slack-Request-Timestamp`: unix seconds. */
  timestamp: string | undefined;
  /** `X-Slack-Signature`: `v0=<hex>`. */
  signature: string | undefined;
  rawBody: string;
}

/**
 * Slack's v0 request signature: `v0=` + hex HMAC-SHA256 keyed with the signing
 * secret over `v0:<timestamp>:<raw body>`, with a timestamp within 5 minutes either way (future
 * timestamps too, as Slack's own sample does). Null when the request is genuine, else why not.
 */
export function checkChatSignature(
  secret: string | undefined,
  request: SignedRequest,
  nowSeconds: number,
): SignatureFailure | null {
  if (!secret) return 'no_signing_secret';
  const { timestamp, signature, rawBody } = request;
  if (!timestamp || !signature) return 'missing_headers';
  if (!/^\d{1,12}$/.test(timestamp)) return 'bad_timestamp';
  if (Math.abs(nowSeconds - Number(timestamp)) > SIGNATURE_WINDOW_SECONDS) return 'stale_timestamp';
  if (!signature.startsWith('v0=')) return 'unknown_version';
  return hmacMatches(secret, `v0:${timestamp}:${rawBody}`, signature.slice('v0='.length)) ? null : 'mismatch';
}
