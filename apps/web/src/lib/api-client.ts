/**
 * The one way the UI talks to the API: same-origin fetches that carry the HttpOnly session cookie, JSON
 * in and out, and the API's error envelope (docs/api.md#errors) turned into an `ApiError` whose
 * message a person can read. Nothing here stores a token.
 */

import { BACKGROUND_HEADER, isBackgroundNow } from './background';

interface ErrorEnvelope {
  error?: { code?: string; message?: string; details?: unknown; request_id?: string };
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId: string | undefined;

  constructor(status: number, code: string, message: string, requestId?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.requestId = requestId;
  }
}

/** `validation_failed` details are `[{path, message}]`: named fields read better than "invalid". */
function describeDetails(details: unknown): string {
  if (!Array.isArray(details)) return '';
  const parts = details
    .filter((d): d is { path: string; message: string } => typeof d?.message === 'string')
    .slice(0, 5)
    .map((d) => (d.path ? `${d.path}: ${d.message}` : d.message));
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}

/** What the UI says for an error envelope; the generic database message keeps internals out. */
export function messageOf(
  status: number,
  body: ErrorEnvelope | undefined,
): { code: string; message: string } {
  const code = body?.error?.code ?? (status >= 500 ? 'internal' : 'error');
  if (code === 'database_unavailable') {
    return { code, message: 'The service cannot reach its database right now. Try again shortly.' };
  }
  if (code === 'rate_limited') return { code, message: 'Too many requests; wait a moment and try again.' };
  const message = body?.error?.message ?? `The server answered ${status}.`;
  return { code, message: `${message}${describeDetails(body?.error?.details)}` };
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        // Only reads can be polling; a write is always someone's action.
        ...(method === 'GET' && isBackgroundNow() ? { [BACKGROUND_HEADER]: '1' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network', 'Cannot reach the Firebreak server. Check your connection.');
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const envelope = parsed as ErrorEnvelope | undefined;
    const { code, message } = messageOf(response.status, envelope);
    throw new ApiError(response.status, code, message, envelope?.error?.request_id);
  }
  return parsed as T;
}

export const get = <T>(path: string) => request<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {});
export const patch = <T>(path: string, body: unknown) => request<T>('PATCH', path, body);
export const put = <T>(path: string, body: unknown) => request<T>('PUT', path, body);
export const del = (path: string) => request<void>('DELETE', path);
