/**
 * A failed request in words for the logs and the delivery row: the socket's own reason (refused, reset,
 * name not found) or the timeout. Never the request itself, whose headers carry credentials.
 */
export function describeNetworkFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `timed out after ${timeoutMs / 1000} s`;
  }
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.message : String(error);
}
