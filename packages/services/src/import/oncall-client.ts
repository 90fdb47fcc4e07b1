import { AppError, OnCallPage } from '@firebreak/schema';
import {
  badUrl,
  notOnCall,
  sourceFailed,
  stillThrottled,
  timedOut,
  tokenRefused,
  unreachable,
} from './oncall-errors';

/**
 * A reader of Grafana OnCall's public API v1 (the fake in packages/testing behaves the same): the token raw
 * in `Authorization` (OnCall refuses `Bearer `), every page by `page`/`perpage` until `next` is null (a
 * page past the end repeats the last one, so "until empty" would never end), and 429 waited out for
 * `Retry-After` seconds, a bounded number of times.
 */

export interface OnCallClientOptions {
  /** The "OnCall API URL"; endpoints live under `<url>/api/v1/`. */
  url: string;
  token: string;
  fetch?: typeof fetch;
  /** Per request, body included. */
  timeoutMs?: number;
  /** How often one request is retried after a 429. */
  maxThrottleRetries?: number;
  /** A longer wait than this is not waited out: the import fails with 503 and the wait. */
  maxRetryAfterSeconds?: number;
  sleep?: (ms: number) => Promise<void>;
  /** `perpage`: OnCall allows more than its defaults (100 users, 50 others); fewer requests, less throttling. */
  pageSize?: number;
  /** Told after each page read (the CLI's progress on a terminal). */
  onProgress?: (progress: OnCallProgress) => void;
}

/** A page of `resource` was read (`items` so far), or OnCall asked us to wait `waitSeconds`. */
export type OnCallProgress =
  | { kind: 'page'; resource: string; page: number; items: number }
  | { kind: 'throttled'; resource: string; waitSeconds: number };

export interface OnCallClient {
  /** Every item of `/api/v1/<resource>/`, in the API's order. */
  list(resource: string): Promise<unknown[]>;
}

const DEFAULTS = { timeoutMs: 30_000, maxThrottleRetries: 5, maxRetryAfterSeconds: 60, pageSize: 100 };
// A 429 without Retry-After (OnCall's "organization being synced") says RateLimit-Reset, or nothing.
const FALLBACK_WAIT_SECONDS = 5;
// Far beyond any real organisation; only a server whose `next` never ends gets here.
const MAX_PAGES = 10_000;

export function createOnCallClient(options: OnCallClientOptions): OnCallClient {
  const base = baseUrl(options.url);
  const settings = {
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    maxThrottleRetries: options.maxThrottleRetries ?? DEFAULTS.maxThrottleRetries,
    maxRetryAfterSeconds: options.maxRetryAfterSeconds ?? DEFAULTS.maxRetryAfterSeconds,
    pageSize: options.pageSize ?? DEFAULTS.pageSize,
  };
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));

  async function getJson(path: string, query: string): Promise<unknown> {
    const where = `${base}${path}`;
    for (let attempt = 0; ; attempt += 1) {
      let response: Response;
      try {
        response = await doFetch(`${where}?${query}`, {
          headers: { authorization: options.token, accept: 'application/json' },
          signal: AbortSignal.timeout(settings.timeoutMs),
        });
        if (response.status === 429) {
          const wait = retryAfterSeconds(response.headers);
          await response.body?.cancel();
          if (attempt >= settings.maxThrottleRetries || wait > settings.maxRetryAfterSeconds) {
            throw stillThrottled(path, wait);
          }
          options.onProgress?.({ kind: 'throttled', resource: resourceOf(path), waitSeconds: wait });
          await sleep(wait * 1000);
          continue;
        }
        return await readBody(response, path);
      } catch (error) {
        throw asAppError(error, path, new URL(base).origin, settings.timeoutMs);
      }
    }
  }

  return {
    async list(resource) {
      const path = `/api/v1/${resource}/`;
      const items: unknown[] = [];
      let page = 1;
      for (let count = 0; count < MAX_PAGES; count += 1) {
        const body = OnCallPage.safeParse(await getJson(path, `page=${page}&perpage=${settings.pageSize}`));
        if (!body.success) throw notOnCall(path, 'answered JSON without `results` and `next`');
        items.push(...body.data.results);
        options.onProgress?.({ kind: 'page', resource, page: count + 1, items: items.length });
        if (body.data.next === null) return items;
        // The page number, not the link: `next` is built from OnCall's BASE_URL, which may not be the
        // address this service reaches it at.
        const next = pageOf(body.data.next) ?? page + 1;
        if (next <= page) throw notOnCall(path, `links page ${page} to page ${next}`);
        page = next;
      }
      throw notOnCall(path, `has more than ${MAX_PAGES} pages`);
    },
  };
}

/** Origin and path, without credentials, query or trailing slash. */
function baseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw badUrl(`"${text}" is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw badUrl('The URL must be http:// or https://.');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

async function readBody(response: Response, path: string): Promise<unknown> {
  if (response.status === 401 || response.status === 403) {
    throw tokenRefused(response.status, detailOf(await response.text()));
  }
  if (response.status >= 500) throw sourceFailed(path, response.status);
  if (!response.ok) throw notOnCall(path, `answered HTTP ${response.status}`);
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    const type = response.headers.get('content-type') ?? 'no content type';
    throw notOnCall(path, `answered something that is not JSON (${type})`);
  }
}

function asAppError(error: unknown, path: string, origin: string, timeoutMs: number): unknown {
  if (error instanceof AppError || !(error instanceof Error)) return error;
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return timedOut(path, timeoutMs / 1000);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return unreachable(origin, cause?.code ?? cause?.message ?? error.message);
}

/** OnCall's `{"detail": "Invalid token."}`, when it sent one. */
function detailOf(text: string): string | undefined {
  try {
    const detail = (JSON.parse(text) as { detail?: unknown }).detail;
    return typeof detail === 'string' ? detail.slice(0, 200) : undefined;
  } catch {
    return undefined;
  }
}

export function retryAfterSeconds(headers: Headers): number {
  for (const name of ['retry-after', 'ratelimit-reset']) {
    const seconds = Number.parseInt(headers.get(name) ?? '', 10);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  }
  return FALLBACK_WAIT_SECONDS;
}

function pageOf(link: string): number | undefined {
  try {
    const page = Number.parseInt(new URL(link).searchParams.get('page') ?? '', 10);
    return Number.isFinite(page) ? page : undefined;
  } catch {
    return undefined;
  }
}

/** `/api/v1/users/` → `users`. */
function resourceOf(path: string): string {
  return path.split('/').filter(Boolean).at(-1) ?? path;
}
