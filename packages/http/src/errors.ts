import { describeDatabaseFailure, isDatabaseUnavailable } from '@firebreak/db';
import type { FailureLog } from '@firebreak/metrics';
import { AppError, errorEnvelope } from '@firebreak/schema';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './env';

/** Maps anything thrown by a route to the API's error envelope (docs/api.md#errors). */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error)) {
    return new AppError('database_unavailable', 'The database is unavailable. Try again shortly.');
  }
  if (error instanceof HTTPException && error.status === 413) {
    return new AppError('payload_too_large', 'The request body is too large.');
  }
  return new AppError('internal', 'Something went wrong on our side.');
}

export function errorResponse(c: Context<AppEnv>, error: AppError): Response {
  return c.json(errorEnvelope(error, c.get('requestId') ?? 'unknown'), error.status as ContentfulStatusCode);
}

/**
 * The app's error handler. A database outage is reported to `failures`, which logs it once per change
 * of state instead of once per request (an outage under load would otherwise write thousands of lines).
 */
export function handleError(error: unknown, c: Context<AppEnv>, failures?: FailureLog): Response {
  const appError = toAppError(error);
  const logger = c.get('logger');
  if (appError.code === 'internal') {
    logger?.error({ err: error }, 'request failed');
  } else if (appError.code === 'database_unavailable' && isDatabaseUnavailable(error)) {
    failures?.failed('database', describeDatabaseFailure(error));
  }
  // The rest of a body too large was never read: this connection cannot carry another request
  // (a client reusing it saw its next request cut off). Close it, as nginx does on 413.
  if (appError.code === 'payload_too_large') c.header('Connection', 'close');
  // 429 and 503 say when to come back.
  if (typeof appError.details === 'object' && appError.details) {
    const retryAfter = (appError.details as { retry_after_seconds?: number }).retry_after_seconds;
    if (retryAfter !== undefined) c.header('Retry-After', String(retryAfter));
  }
  return errorResponse(c, appError);
}
