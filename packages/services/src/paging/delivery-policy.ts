// What a send's outcome means for a page (docs/paging.md#retries). Pure: callers pass the clock in.

/** Tries of one page before it is failed for good. */
export const MAX_PAGE_ATTEMPTS = 5;
/** First retry after 30 s, then twice as long each time, up to 5 minutes; a longer Retry-After wins. */
export const FIRST_PAGE_RETRY_MS = 30_000;
export const MAX_PAGE_RETRY_MS = 5 * 60_000;

/** What a sender reported (the worker's `SendOutcome`). */
export type PageSendResult =
  | { ok: true; providerId?: string }
  | { ok: false; retryable: boolean; retryAfterMs?: number; gone?: boolean; error: string };

export interface PageVerdict {
  status: 'sent' | 'failed' | 'pending';
  error: string | null;
  nextAttemptAt: Date | null;
}

export function pageRetryDelayMs(attempts: number, retryAfterMs?: number): number {
  const backoff = Math.min(FIRST_PAGE_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_PAGE_RETRY_MS);
  return retryAfterMs !== undefined && retryAfterMs > backoff ? retryAfterMs : backoff;
}

/** The page's state after its `attempts`-th try (this one included), made at `now`. */
export function judgePageSend(result: PageSendResult, attempts: number, now: Date): PageVerdict {
  if (result.ok) return { status: 'sent', error: null, nextAttemptAt: null };
  if (!result.retryable) return { status: 'failed', error: result.error, nextAttemptAt: null };
  if (attempts >= MAX_PAGE_ATTEMPTS) {
    return {
      status: 'failed',
      error: `${result.error}; gave up after ${attempts} tries`,
      nextAttemptAt: null,
    };
  }
  return {
    status: 'pending',
    error: result.error,
    nextAttemptAt: new Date(now.getTime() + pageRetryDelayMs(attempts, result.retryAfterMs)),
  };
}
