/** Which Microsoft service answered: the identity platform (tokens), Graph, or the Bot Connector. */
export type MicrosoftService = 'login' | 'graph' | 'connector';

/**
 * A Microsoft call that failed: the service, the HTTP status (0 when no answer came), the error code
 * Microsoft gave (Graph's and the Bot Connector's `error.code`, the identity platform's `error`), else
 * `http_<status>` or `network_error`, and, for a 429, `retryAfter` in seconds, which the shared
 * rate-limit pauses read (outbound/rate-limit-pauses.ts).
 */
export class TeamsApiError extends Error {
  constructor(
    readonly service: MicrosoftService,
    readonly status: number,
    readonly code: string,
    readonly retryAfter?: number,
  ) {
    super(`${service}: ${status === 0 ? 'no answer' : `HTTP ${status}`}: ${code}`);
    this.name = 'TeamsApiError';
  }
}

// Graph and the Bot Connector send `Retry-After` in seconds; an answer without one waits this long.
const DEFAULT_RETRY_AFTER_S = 5;

/** Seconds from a `Retry-After` header (seconds or an HTTP date); the default when missing or odd. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number {
  if (header === null) return DEFAULT_RETRY_AFTER_S;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.max(1, Math.ceil(seconds));
  const at = Date.parse(header);
  return Number.isNaN(at) ? DEFAULT_RETRY_AFTER_S : Math.max(1, Math.ceil((at - now) / 1000));
}

/** The error code in a failed answer's body, as each service writes it; `http_<status>` otherwise. */
export function errorCodeOf(status: number, body: unknown): string {
  const parsed = body as { error?: unknown } | null;
  const inner = parsed?.error;
  if (typeof inner === 'string' && inner !== '') return inner;
  const code = (inner as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code !== '' ? code : `http_${status}`;
}
