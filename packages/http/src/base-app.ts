import type { Logger } from '@firebreak/logger';
import type { FailureLog, Metrics } from '@firebreak/metrics';
import { AppError, toValidationIssues } from '@firebreak/schema';
import { OpenAPIHono } from '@hono/zod-openapi';
import { requestId } from 'hono/request-id';
import { loggablePath } from './api-paths';
import type { AppEnv } from './env';
import { errorResponse, handleError } from './errors';
import type { HttpApp } from './openapi/operation';

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

export function createBaseApp({ logger, metrics, failures }: BaseAppDeps): HttpApp {
  const app = new OpenAPIHono<AppEnv>({
    // Routes are added with `createOperations`, which validates through this package's own readers;
    // should one use the library's `app.openapi` instead, a failed check still answers the API's
    // `validation_failed` envelope (docs/api.md#validation-errors) rather than the library's own 400.
    defaultHook: (result) => {
      if (!result.success) {
        throw new AppError(
          'validation_failed',
          'The request is not valid.',
          toValidationIssues(result.error),
        );
      }
    },
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key, or the session token from `POST /api/v1/auth/login`.',
  });
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
        path: loggablePath(c.req.path),
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
    errorResponse(c, new AppError('not_found', `No route for ${c.req.method} ${loggablePath(c.req.path)}.`)),
  );
  return app;
}
