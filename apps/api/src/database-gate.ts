import { type AppEnv, isApiPath } from '@firebreak/http';
import { AppError } from '@firebreak/schema';
import type { ServiceContext } from '@firebreak/services';
import type { MiddlewareHandler } from 'hono';
import { referenceOperations } from './operations/reference';

// The API's description of itself is built from the routes, not the database: it keeps answering.
const needNoDatabase = new Set<string>(Object.values(referenceOperations).map((operation) => operation.path));

// Twilio's callbacks answer TwiML whatever happens, a database outage included (the caller hears what
// to do instead of Twilio's "application error"): their routes handle the outage themselves.
const TWILIO_CALLBACKS = '/api/v1/paging/twilio/';

/**
 * While the database is known to be down (a request or a probe saw it fail; the failure log probes it
 * every second until it answers), API requests answer 500 `database_unavailable` at once instead of
 * each waiting on a connection attempt: an operator's console must say the database is down, not hang
 * (docs/decisions.md#a-database-outage-answers-at-once). First among the API's middleware, since the
 * rate limit already reads the database to find whose budget a token draws on. Webhooks, keyed intake
 * and chat keep their own handling.
 */
export function answerAtOnceWhileDatabaseDown(
  ctx: Pick<ServiceContext, 'failures'>,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const path = c.req.path;
    const reason =
      isApiPath(path) && !needNoDatabase.has(path) && !path.startsWith(TWILIO_CALLBACKS)
        ? ctx.failures.failing('database')
        : undefined;
    if (reason !== undefined) {
      // Still counted in /metrics like a request that reached the database; the same reason logs nothing.
      ctx.failures.failed('database', { reason, line: `database: ${reason}` });
      throw new AppError('database_unavailable', 'The database is unavailable. Try again shortly.');
    }
    await next();
  };
}
