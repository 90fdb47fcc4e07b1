import { createHash } from 'node:crypto';
import type { Redis } from '@firebreak/queue';
import { AppError } from '@firebreak/schema';
import { authenticate, type ServiceContext } from '@firebreak/services';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { isApiPath } from './api-paths';
import { isBackgroundRequest, presentedToken } from './auth';
import type { AppEnv } from './env';

export interface RateLimitOptions {
  /** To tell a valid token from a made-up one (a made-up one must not buy a fresh budget). */
  ctx: ServiceContext;
  redis: Redis;
  keyPrefix: string;
  requestsPerMinute: number;
  /** Take the client address from `X-Forwarded-For` (only behind a proxy that sets it). */
  trustProxy: boolean;
}

/**
 * `RATE_LIMIT_REQUESTS_PER_MINUTE` per API key, session or client address on the API
 * (docs/api.md#rate-limiting), counted in Redis so that every replica shares the budget. While Redis is
 * unreachable the limiter falls back to counting in this process (rate-limiter-flexible's insurance
 * limiter): the API keeps working and stays limited. Webhooks, chat and health are never limited (senders
 * do not retry 429), nor are the paging routes that carry their own credential (`carriesOwnCredential`).
 */
export function createRateLimit(options: RateLimitOptions): MiddlewareHandler<AppEnv> {
  const perProcess = new RateLimiterMemory({ points: options.requestsPerMinute, duration: 60 });
  const limiter = new RateLimiterRedis({
    storeClient: options.redis,
    keyPrefix: `${options.keyPrefix}:ratelimit`,
    points: options.requestsPerMinute,
    duration: 60,
    insuranceLimiter: perProcess,
  });
  return async (c, next) => {
    if (!isApiPath(c.req.path) || carriesOwnCredential(c.req.path)) return next();
    let result: RateLimiterRes;
    try {
      result = await limiter.consume(await clientKey(c, options));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      setHeaders(c, options.requestsPerMinute, 0, retryAfter);
      throw new AppError('rate_limited', `Too many requests; try again in ${retryAfter} s.`, {
        retry_after_seconds: retryAfter,
      });
    }
    setHeaders(c, options.requestsPerMinute, result.remainingPoints, Math.ceil(result.msBeforeNext / 1000));
    await next();
  };
}

function setHeaders(c: Context, limit: number, remaining: number, resetSeconds: number): void {
  c.header('RateLimit-Limit', String(limit));
  c.header('RateLimit-Remaining', String(Math.max(0, remaining)));
  c.header('RateLimit-Reset', String(resetSeconds));
}

/**
 * A page's acknowledge link (`/api/v1/page/{token}`, a signed token) and Twilio's callbacks
 * (`/api/v1/paging/twilio/*`, signed with the auth token) prove themselves on every request, so a
 * guessed one gets nothing, and a 429 there would cost a page: Twilio calls from a few shared addresses
 * and drops the call or text, and a person acknowledging from a phone behind a busy NAT must never be
 * told to wait (docs/api.md#rate-limiting).
 */
function carriesOwnCredential(path: string): boolean {
  return path.startsWith('/api/v1/page/') || path.startsWith('/api/v1/paging/twilio/');
}

// Where credentials are being proven, the budget is always the client address: otherwise every
// guess would come with a fresh budget.
const credentialPaths = new Set(['/api/v1/auth/login', '/api/v1/auth/setup']);

/**
 * The budget a request draws on: its token's, when the token is valid (each API key and session has
 * its own), else its client address. A token is checked before it counts, so sending made-up tokens
 * does not buy fresh budgets; the principal found is kept for the route's guard.
 */
async function clientKey(c: Context<AppEnv>, options: RateLimitOptions): Promise<string> {
  const token = credentialPaths.has(c.req.path) ? undefined : presentedToken(c);
  if (token) {
    const principal = c.get('principal') ?? (await authenticate(options.ctx, token, isBackgroundRequest(c)));
    if (principal) {
      c.set('principal', principal);
      return `t:${createHash('sha256').update(token).digest('hex').slice(0, 32)}`;
    }
  }
  return `ip:${clientAddress(c, options.trustProxy)}`;
}

/**
 * The client's address as the rate limit sees it; the login backoff keys on the same one, so both
 * agree on who a client is.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    // The right-most entry is the one our own proxy added; entries left of it are the client's say.
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown'; // no socket (in-process requests)
  }
}
