import { AppError, parseOrThrow } from '@firebreak/schema';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import { isApiPath } from './api-paths';
import { isJsonContentType } from './content-type';
import { parseJson } from './json';

export { MAX_JSON_DEPTH, parseJson } from './json';

export const API_BODY_LIMIT_BYTES = 256 * 1024;
export const WEBHOOK_BODY_LIMIT_BYTES = 1024 * 1024;

/** Rejects bodies over `maxSize` with 413 `payload_too_large` before reading them whole. */
export function limitBody(maxSize: number): MiddlewareHandler {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw new AppError('payload_too_large', `The request body is larger than ${maxSize} bytes.`);
    },
  });
}

/** The API's 256 KiB limit, on API paths only (webhooks have their own, larger one). */
export function limitApiBody(): MiddlewareHandler {
  const limit = limitBody(API_BODY_LIMIT_BYTES);
  return (c, next) => (isApiPath(c.req.path) ? limit(c, next) : next());
}

export function requireJsonContentType(c: Context): void {
  if (!isJsonContentType(c.req.header('content-type'))) {
    throw new AppError(
      'unsupported_media_type',
      'Send the body as JSON with Content-Type: application/json.',
    );
  }
}

/**
 * The raw body as text. A client that goes away mid-body makes the read fail with a socket error;
 * that is the client's problem (400), not ours, and must not look like a database failure in the logs.
 */
export async function readBodyText(c: Context): Promise<string> {
  try {
    return await c.req.text();
  } catch (error) {
    if (error instanceof AppError) throw error; // the body limit
    throw new AppError(
      'invalid_json',
      'The request body could not be read (the client closed the connection).',
    );
  }
}

/** Content type, JSON syntax, then the schema: 415, 400 `invalid_json`, 400 `validation_failed`. */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  requireJsonContentType(c);
  return parseOrThrow(schema, parseJson(await readBodyText(c)));
}
