/**
 * Throttling shared by the Microsoft fakes (Azure AD token endpoint, Bot Connector, Graph): like the
 * real services, a request over a limit is answered 429 with `Retry-After` (seconds), and tests can
 * throttle the next requests on purpose. Limits are counted in a sliding window per key (the Bot
 * Connector counts per conversation, Graph per app and tenant).
 */
export interface ThrottleLimit {
  requests: number;
  windowMs: number;
}

export class FakeThrottle {
  private readonly seen = new Map<string, number[]>();
  private forced: { remaining: number; retryAfterS: number } | undefined;

  constructor(
    private readonly limits: readonly ThrottleLimit[],
    private readonly retryAfterS = 1,
  ) {}

  /** The next `times` requests are answered 429 with this `Retry-After`. */
  throttleNext(times = 1, retryAfterS = this.retryAfterS): void {
    this.forced = { remaining: times, retryAfterS };
  }

  /** Seconds to wait when this request is over a limit, else undefined (and the request is counted). */
  check(key: string, now = Date.now()): number | undefined {
    if (this.forced && this.forced.remaining > 0) {
      this.forced.remaining -= 1;
      return this.forced.retryAfterS;
    }
    const longest = Math.max(0, ...this.limits.map((l) => l.windowMs));
    const times = (this.seen.get(key) ?? []).filter((t) => now - t < longest);
    for (const limit of this.limits) {
      if (times.filter((t) => now - t < limit.windowMs).length >= limit.requests) {
        this.seen.set(key, times);
        return this.retryAfterS;
      }
    }
    times.push(now);
    this.seen.set(key, times);
    return undefined;
  }
}

/** The bearer token of a request, if it has one. */
export function bearerOf(request: Request): string | undefined {
  return /^Bearer (\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
}

/** One request a Microsoft fake received (what tests assert on). */
export interface FakeMicrosoftRequest {
  method: string;
  path: string;
  status: number;
  body: unknown;
  /** The error code of a refusal (`NameAlreadyExists`, `invalid_client`…). */
  code?: string;
}
