import { hmacHex } from '@firebreak/http';
import {
  DELIVERY_TIMEOUT_MS,
  parseRetryAfter,
  type SendWebhook,
  type WebhookAttemptResult,
  type WebhookRequest,
} from '@firebreak/services';

// The start of a refusal's body goes to the delivery log: enough to tell "wrong path" from "bad
// token", not enough to fill the database with a receiver's error page.
const DETAIL_MAX_CHARS = 200;

/** The headers of one attempt (docs/integrations/outgoing-webhooks.md#headers). */
export function webhookHeaders(request: WebhookRequest): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Firebreak',
    'x-firebreak-event': request.event,
    'x-firebreak-timestamp': String(request.timestamp),
    'x-firebreak-delivery': request.deliveryId,
  };
  if (request.secret) {
    // The timestamp is signed with the body, so a receiver can refuse an old delivery replayed.
    headers['x-firebreak-signature'] =
      `sha256=${hmacHex(request.secret, `${request.timestamp}.${request.body}`)}`;
  }
  return headers;
}

/**
 * POSTs deliveries with fetch: no redirect is followed (a 3xx is the target's answer, and following
 * one would send the signed event somewhere the admin did not name), and the whole exchange is
 * aborted after `timeoutMs`. Every failure is reported as a result, never thrown.
 */
export function createWebhookSender(options: { timeoutMs?: number; now?: () => Date } = {}): SendWebhook {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const now = options.now ?? (() => new Date());
  return async (request): Promise<WebhookAttemptResult> => {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const response = await fetch(request.url, {
        method: 'POST',
        headers: webhookHeaders(request),
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      const detail = await readDetail(response);
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), now());
      return {
        kind: 'answered',
        statusCode: response.status,
        durationMs: elapsed(),
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        ...(detail ? { detail } : {}),
      };
    } catch (error) {
      return { kind: 'unreachable', error: describeFailure(error, timeoutMs), durationMs: elapsed() };
    }
  };
}

/** The start of a refusal's body; a 2xx body is not read (only its status counts). */
async function readDetail(response: Response): Promise<string | undefined> {
  if (response.ok || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < DETAIL_MAX_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // A body cut short or too slow: the status says enough.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, DETAIL_MAX_CHARS) || undefined;
}

/** A network failure in words: the socket's own reason (refused, reset, not found), or the timeout. */
function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `timed out after ${timeoutMs / 1000} s`;
  }
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown }) : undefined;
  if (cause && typeof cause.message === 'string') {
    return typeof cause.code === 'string' && !cause.message.includes(cause.code)
      ? `${cause.code}: ${cause.message}`
      : cause.message;
  }
  return error instanceof Error ? error.message : String(error);
}
