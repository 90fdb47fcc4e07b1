// What an attempt's outcome means for a delivery (docs/integrations/outgoing-webhooks.md#retries). Pure:
// the delivery loop and its tests pass the clock in.

/** A target gets this long to answer; the worker aborts the request after it. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** The first retry waits this long; each next one twice as long, up to `MAX_RETRY_DELAY_MS`. */
export const FIRST_RETRY_DELAY_MS = 10_000;
export const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;
/** No attempt is made later than this after the event: the delivery is failed and the next one goes. */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;

/** What one request came to, as the worker saw it. */
export type WebhookAttemptResult =
  | {
      kind: 'answered';
      statusCode: number;
      durationMs: number;
      /** A 429's `Retry-After`, in milliseconds from now. */
      retryAfterMs?: number;
      /** The start of the answer's body, for the delivery log. */
      detail?: string;
    }
  | { kind: 'unreachable'; error: string; durationMs: number };

export interface DeliveryVerdict {
  status: 'pending' | 'delivered' | 'failed';
  error: string | null;
  /** When to try again, while `status` is pending. */
  nextAttemptAt: Date | null;
}

/** The wait after the `attempts`-th failed try: 10 s, 20 s, 40 s… capped at an hour; a longer Retry-After wins. */
export function webhookRetryDelayMs(attempts: number, retryAfterMs?: number): number {
  const backoff = Math.min(FIRST_RETRY_DELAY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_DELAY_MS);
  return retryAfterMs !== undefined && retryAfterMs > backoff ? retryAfterMs : backoff;
}

/** Network errors, timeouts, 5xx and 429 may pass; another 4xx or a 3xx (never followed) will not. */
function isRetryable(result: WebhookAttemptResult): boolean {
  return result.kind === 'unreachable' || result.statusCode === 429 || result.statusCode >= 500;
}

function describe(result: WebhookAttemptResult): string {
  if (result.kind === 'unreachable') return result.error;
  const what =
    result.statusCode >= 300 && result.statusCode < 400
      ? `HTTP ${result.statusCode} (redirects are not followed)`
      : `HTTP ${result.statusCode}`;
  return result.detail ? `${what}: ${result.detail}` : what;
}

/**
 * The delivery's state after its `attempts`-th try (this one included), made at `now`, of an event
 * that happened at `createdAt`.
 */
export function judgeDeliveryAttempt(
  result: WebhookAttemptResult,
  attempts: number,
  now: Date,
  createdAt: Date,
): DeliveryVerdict {
  if (result.kind === 'answered' && result.statusCode >= 200 && result.statusCode < 300) {
    return { status: 'delivered', error: null, nextAttemptAt: null };
  }
  const error = describe(result);
  if (!isRetryable(result)) return { status: 'failed', error, nextAttemptAt: null };
  const next = new Date(now.getTime() + webhookRetryDelayMs(attempts, retryAfterOf(result)));
  if (next.getTime() >= createdAt.getTime() + GIVE_UP_AFTER_MS) {
    return { status: 'failed', error: `${error}; gave up: no success within 24 hours`, nextAttemptAt: null };
  }
  return { status: 'pending', error, nextAttemptAt: next };
}

const retryAfterOf = (result: WebhookAttemptResult) =>
  result.kind === 'answered' && result.statusCode === 429 ? result.retryAfterMs : undefined;

/** Whether the event is too old for any attempt (it waited 24 hours behind earlier deliveries). */
export function isDeliveryExpired(createdAt: Date, now: Date): boolean {
  return now.getTime() >= createdAt.getTime() + GIVE_UP_AFTER_MS;
}

/** `Retry-After` as milliseconds from `now`: delay-seconds or an HTTP date; undefined when unreadable. */
export function parseRetryAfter(value: string | null, now: Date): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now.getTime());
}
