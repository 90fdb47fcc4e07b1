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

/**
 * An API route that reads and limits its own body (a file upload), passed through the API's limit
 * untouched. Only that method on a path matching `path`: every other request keeps the API's limit.
 */
export interface OwnBodyLimit {
  method: string;
  path: RegExp;
}

/**
 * The API's 256 KiB limit, on API paths only (webhooks have their own, larger one). The routes in
 * `ownLimits` are left alone: a larger limit here would run before authentication, and hono's limit
 * reads a body without Content-Length eagerly, so anyone could make the process take in megabytes
 * before being refused 401. Those routes call `readLimitedBody` once the role and CSRF checks passed.
 */
export function limitApiBody(ownLimits: readonly OwnBodyLimit[] = []): MiddlewareHandler {
  const limit = limitBody(API_BODY_LIMIT_BYTES);
  return (c, next) => {
    if (!isApiPath(c.req.path)) return next();
    if (ownLimits.some((e) => e.method === c.req.method && e.path.test(c.req.path))) return next();
    return limit(c, next);
  };
}

/**
 * The whole body, at most `maxSize` bytes, read only as fast as it is consumed: a declared
 * Content-Length over the limit is refused before a byte is read, and a body without one (chunked) is
 * counted as it arrives and cut off at the first chunk past the limit. Either way `tooLarge` (a 413)
 * is thrown. A client that goes away mid-body is a 400, as in `readBodyText`.
 */
export async function readLimitedBody(
  c: Context,
  maxSize: number,
  tooLarge: () => AppError,
): Promise<Uint8Array> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > maxSize) throw tooLarge();
  const body = c.req.raw.body;
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxSize) {
        void reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      'validation_failed',
      'The request body could not be read (the client closed the connection).',
    );
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
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
