import type { Logger } from '@firebreak/logger';
import type { FailureLog, Metrics } from '@firebreak/metrics';
import { AppError } from '@firebreak/schema';
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import type { AppEnv } from './env';
import { errorResponse, handleError } from './errors';

/**
 * The Hono app every Firebreak process starts from: request ids, one log line per request, the
 * error envelope and a 404 in the same shape. Each app adds its routes to it; the embedded start adds
 * every app's routes to one of these.
 */
export interface BaseAppDeps {
  logger: Logger;
  metrics?: Metrics;
  /** Where a database outage seen by a request is reported (logged once per change of state). */
  failures?: FailureLog;
}

export function createBaseApp({ logger, metrics, failures }: BaseAppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requestId({ headerName: 'X-Request-Id' }));
  app.use('*', async (c, next) => {
    const started = performance.now();
    const requestLogger = logger.child({ request_id: c.get('requestId') });
    c.set('logger', requestLogger);
    c.set('principal', undefined);
    await next();
    const seconds = (performance.now() - started) / 1000;
    const route = c.req.routePath;
    requestLogger.info(
      {
        method: c.req.method,
        route,
        path: c.req.path,
        status: c.res.status,
        duration_ms: Math.round(seconds * 10_000) / 10,
      },
      'request',
    );
    metrics?.httpRequestDuration.observe(
      { method: c.req.method, route, status: String(c.res.status) },
      seconds,
    );
  });
  app.onError((error, c) => handleError(error, c, failures));
  app.notFound((c) =>
    errorResponse(c, new AppError('not_found', `No route for ${c.req.method} ${c.req.path}.`)),
  );
  return app;
}
