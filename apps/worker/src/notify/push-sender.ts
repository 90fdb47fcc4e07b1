import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { PagingConfig } from '@firebreak/config';
import { isAllowedPushHost, isInternalAddress } from '@firebreak/schema';
import { parseRetryAfter } from '@firebreak/services';
// web-push is CommonJS: Node's ES module loader sees only its default export.
import webPush from 'web-push';
import { describeNetworkFailure } from './network-failure';
import type { SendOutcome } from './outcome';

export type PushConfig = NonNullable<PagingConfig['push']>;

/** What a browser's `PushSubscription.toJSON()` gives, as stored on the person's contact method. */
export interface PushSubscriptionJson {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** What the service worker (apps/web/public/sw.js) reads from a push message. */
export interface PushPayload {
  title: string;
  body: string;
  /** The incident's page, opened when the notification is clicked. */
  url: string;
  /** The page link's acknowledge URL, POSTed by the notification's Acknowledge button. */
  ack_url: string;
  /** Notifications with the same tag replace each other (one per incident). */
  tag?: string;
}

export const PUSH_TIMEOUT_MS = 10_000;
/** A page older than an hour is news, not a page; the push service drops it rather than deliver it late. */
export const PUSH_TTL_SECONDS = 3600;
// A push message carries at most 4096 bytes once encrypted (docs/paging-twilio-push.md#web-push); a long
// title or body is cut well below that so the JSON always fits.
const MAX_TITLE_CHARS = 200;
const MAX_BODY_CHARS = 1000;

/** The addresses a host name resolves to (the system resolver; tests give their own). */
export type ResolveHost = (hostname: string) => Promise<string[]>;

const resolveWithSystem: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Sends one Web Push message (docs/paging-twilio-push.md#web-push): VAPID-signed, aes128gcm-encrypted
 * for the subscription's keys, urgency high. Never throws: a subscription the push service no longer
 * knows (404/410) comes back `gone`, so the contact method stops being used.
 *
 * web-push builds the request (the VAPID JWT, the encryption) and fetch sends it: web-push's own
 * `sendNotification` has only a socket-idle timeout, not a deadline for the whole exchange, and speaks
 * https only, while the same code must reach the plain-HTTP fake push service in tests.
 */
export async function sendPush(
  cfg: PushConfig,
  subscription: PushSubscriptionJson,
  payload: PushPayload,
  resolveHost: ResolveHost = resolveWithSystem,
): Promise<SendOutcome> {
  let request: ReturnType<typeof webPush.generateRequestDetails>;
  try {
    request = webPush.generateRequestDetails(subscription, JSON.stringify(fitted(payload)), {
      vapidDetails: { subject: cfg.subject, publicKey: cfg.publicKey, privateKey: cfg.privateKey },
      TTL: PUSH_TTL_SECONDS,
      urgency: 'high',
      contentEncoding: 'aes128gcm',
    });
  } catch (error) {
    // Keys that are not P-256 points, an endpoint that is not a URL: the subscription is broken for good.
    return { ok: false, retryable: false, error: `push subscription unusable: ${messageOf(error)}` };
  }
  const signal = AbortSignal.timeout(PUSH_TIMEOUT_MS);
  let response: Response;
  try {
    if (await resolvesInside(request.endpoint, resolveHost, signal)) {
      // Disabled like a subscription that is gone: every later page would go to the same place.
      return {
        ok: false,
        retryable: false,
        gone: true,
        error: 'push endpoint refused: not a public address',
      };
    }
    response = await fetch(request.endpoint, {
      method: 'POST',
      headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)])),
      body: request.body ? new Uint8Array(request.body) : null,
      redirect: 'manual',
      signal,
    });
  } catch (error) {
    return {
      ok: false,
      retryable: true,
      error: `push service unreachable: ${describeNetworkFailure(error, PUSH_TIMEOUT_MS)}`,
    };
  }
  // The answer's body is dropped unread, never kept: the error (shown to the person as the reason a
  // method was disabled) says the status only, so an endpoint cannot make the worker fetch a page and
  // hand its text back.
  await response.body?.cancel().catch(() => undefined);
  if (response.status >= 200 && response.status < 300) {
    const location = response.headers.get('location');
    return location ? { ok: true, providerId: location } : { ok: true };
  }
  return refusal(response);
}

/**
 * Whether the endpoint's host is, or a name of it resolves now to, an address that is not the public
 * internet (docs/paging.md#contact-methods). The API refused such IP addresses when the subscription was
 * added; a name is judged here, at each send, by what it resolves to. The connection then resolves it
 * again: a name whose answer changes within that instant (DNS rebinding) is not caught here, which is
 * why the worker's egress to private ranges is best closed at the network as well.
 */
async function resolvesInside(
  endpoint: string,
  resolveHost: ResolveHost,
  signal: AbortSignal,
): Promise<boolean> {
  const { hostname } = new URL(endpoint);
  if (!isAllowedPushHost(hostname)) return true;
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare) || hostname === 'localhost') return false;
  const aborted = new Promise<never>((_, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => undefined); // the same signal ends the fetch later; this promise is not awaited then
  const addresses = await Promise.race([resolveHost(hostname), aborted]);
  return addresses.some((address) => isInternalAddress(address));
}

/**
 * 404 and 410: the subscription expired or was revoked (the person unsubscribed, cleared the site's
 * data). 429 and 5xx may pass. Anything else (400, 403 from a VAPID key that is not the one the
 * browser subscribed with, 413) would be refused again.
 */
function refusal(response: Response): SendOutcome {
  const error = `push service ${response.status}`;
  if (response.status === 404 || response.status === 410) {
    return { ok: false, retryable: false, gone: true, error };
  }
  const retryable = response.status === 429 || response.status >= 500;
  const retryAfterMs = retryable
    ? parseRetryAfter(response.headers.get('retry-after'), new Date())
    : undefined;
  return { ok: false, retryable, error, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
}

function fitted(payload: PushPayload): PushPayload {
  return {
    ...payload,
    title: payload.title.slice(0, MAX_TITLE_CHARS),
    body: payload.body.slice(0, MAX_BODY_CHARS),
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
