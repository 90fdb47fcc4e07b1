// A deadlock (40P01) or a serialization failure (40001): PostgreSQL aborted one of two transactions
// that waited on each other. Nothing of the aborted one was committed, so running it again is safe.
const RETRYABLE_SQLSTATES = new Set(['40P01', '40001']);

/** Attempts in all, the first included. */
export const CONFLICT_ATTEMPTS = 3;

export function isRetryableConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE_SQLSTATES.has(code);
}

/**
 * Runs `transaction` (which must open its own transaction, so each attempt starts afresh) again when
 * it lost a deadlock or a serialization conflict, up to CONFLICT_ATTEMPTS in all. `onRetry` is told
 * of each retry (for a log line).
 */
export async function retryOnConflict<T>(
  transaction: () => Promise<T>,
  onRetry: (attempt: number, code: string) => void,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= CONFLICT_ATTEMPTS || !isRetryableConflict(error)) throw error;
      onRetry(attempt, (error as { code: string }).code);
    }
  }
}
