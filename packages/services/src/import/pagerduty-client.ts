import { AppError, PagerDutyPage } from '@firebreak/schema';
import type { OnCallProgress } from './oncall-client';
import {
  accessDenied,
  badUrl,
  notPagerDuty,
  sourceFailed,
  stillThrottled,
  timedOut,
  tokenRefused,
  unreachable,
} from './pagerduty-errors';

/**
 * A reader of PagerDuty's REST API v2 (the fake in packages/testing behaves the same): `Authorization:
 * Token token=…` with the v2 `Accept` header; lists paged by `offset`/`limit` while `more` is true,
 * advancing by the number of items that came back (PagerDuty may return fewer than the `limit` asked and
 * say so); 429 waited out until `ratelimit-reset`, a bounded number of times.
 */

export interface PagerDutyClientOptions {
  /** The REST API host, e.g. `https://api.pagerduty.com`. */
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
  /** `limit` asked for (PagerDuty's maximum is 100). */
  pageSize?: number;
  /** Told after each page read, and before each wait (the CLI's progress on a terminal). */
  onProgress?: (progress: PagerDutyProgress) => void;
}

/** The same events as the OnCall reader's, so the CLI shows both alike. */
export type PagerDutyProgress = OnCallProgress;

export interface PagerDutyClient {
  /** Every item of a paged list, under the answer's `key` (`users` for `/users`), in the API's order. */
  list(path: string, key: string, query?: Record<string, string | string[]>): Promise<unknown[]>;
  /** One object (the answer's `key`), or undefined when PagerDuty answers 404. */
  get(path: string, key: string, query?: Record<string, string | string[]>): Promise<unknown | undefined>;
}

const DEFAULTS = { timeoutMs: 30_000, maxThrottleRetries: 5, maxRetryAfterSeconds: 60, pageSize: 100 };
// PagerDuty sends `ratelimit-reset`; without it, a short pause before trying again.
const FALLBACK_WAIT_SECONDS = 5;
// Far beyond any real account; only a server whose `more` never ends gets here.
const MAX_PAGES = 10_000;

export function createPagerDutyClient(options: PagerDutyClientOptions): PagerDutyClient {
  const base = baseUrl(options.url);
  const settings = {
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    maxThrottleRetries: options.maxThrottleRetries ?? DEFAULTS.maxThrottleRetries,
    maxRetryAfterSeconds: options.maxRetryAfterSeconds ?? DEFAULTS.maxRetryAfterSeconds,
    pageSize: options.pageSize ?? DEFAULTS.pageSize,
  };
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));

  /** The parsed body, or undefined for a 404 when `missingIsFine`. */
  async function getJson(
    path: string,
    query: URLSearchParams,
    missingIsFine: boolean,
  ): Promise<unknown | undefined> {
    const where = `${base}${path}`;
    const search = query.toString();
    for (let attempt = 0; ; attempt += 1) {
      let response: Response;
      try {
        response = await doFetch(search ? `${where}?${search}` : where, {
          headers: {
            authorization: `Token token=${options.token}`,
            accept: 'application/vnd.pagerduty+json;version=2',
          },
          signal: AbortSignal.timeout(settings.timeoutMs),
        });
        if (response.status === 429) {
          const wait = rateLimitResetSeconds(response.headers);
          await response.body?.cancel();
          if (attempt >= settings.maxThrottleRetries || wait > settings.maxRetryAfterSeconds) {
            throw stillThrottled(path, wait);
          }
          options.onProgress?.({ kind: 'throttled', resource: resourceOf(path), waitSeconds: wait });
          await sleep(wait * 1000);
          continue;
        }
        if (response.status === 404 && missingIsFine) {
          await response.body?.cancel();
          return undefined;
        }
        return await readBody(response, path);
      } catch (error) {
        throw asAppError(error, path, new URL(base).origin, settings.timeoutMs);
      }
    }
  }

  return {
    async list(path, key, query = {}) {
      const items: unknown[] = [];
      let offset = 0;
      for (let page = 1; page <= MAX_PAGES; page += 1) {
        const params = toParams({ ...query, offset: String(offset), limit: String(settings.pageSize) });
        const body = await getJson(path, params, false);
        const parsed = PagerDutyPage.safeParse(body);
        const list = parsed.success ? (body as Record<string, unknown>)[key] : undefined;
        if (!parsed.success || !Array.isArray(list)) {
          throw notPagerDuty(path, `answered JSON without \`${key}\` and \`more\``);
        }
        items.push(...list);
        options.onProgress?.({ kind: 'page', resource: resourceOf(path), page, items: items.length });
        if (parsed.data.more !== true) return items;
        // By what came back, not by what was asked: PagerDuty may cap `limit` below our request.
        if (list.length === 0)
          throw notPagerDuty(path, `says more items follow offset ${offset} but sent none`);
        offset += list.length;
      }
      throw notPagerDuty(path, `has more than ${MAX_PAGES} pages`);
    },
    async get(path, key, query = {}) {
      const body = await getJson(path, toParams(query), true);
      if (body === undefined) return undefined;
      const item = (body as Record<string, unknown> | null)?.[key];
      if (item === undefined || item === null) throw notPagerDuty(path, `answered JSON without \`${key}\``);
      return item;
    },
  };
}

function toParams(query: Record<string, string | string[]>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const one of Array.isArray(value) ? value : [value]) params.append(name, one);
  }
  return params;
}

/** Origin and path, without credentials, query or trailing slash. */
function baseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw badUrl(`"${text}" is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw badUrl('The URL must be http:// or https://.');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

async function readBody(response: Response, path: string): Promise<unknown> {
  if (response.status === 401) throw tokenRefused(401, detailOf(await response.text()));
  if (response.status === 403) throw accessDenied(path, detailOf(await response.text()));
  if (response.status >= 500) throw sourceFailed(path, response.status);
  if (!response.ok) throw notPagerDuty(path, `answered HTTP ${response.status}`);
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    const type = response.headers.get('content-type') ?? 'no content type';
    throw notPagerDuty(path, `answered something that is not JSON (${type})`);
  }
}

function asAppError(error: unknown, path: string, origin: string, timeoutMs: number): unknown {
  if (error instanceof AppError || !(error instanceof Error)) return error;
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return timedOut(path, timeoutMs / 1000);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return unreachable(origin, cause?.code ?? cause?.message ?? error.message);
}

/** PagerDuty's `{"error": {"message": "…", "code": 2006}}`, when it sent one. */
function detailOf(text: string): string | undefined {
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    return typeof message === 'string' ? message.slice(0, 200) : undefined;
  } catch {
    return undefined;
  }
}

/** `ratelimit-reset` (seconds until the limit resets), else `retry-after`, else 5 s. */
export function rateLimitResetSeconds(headers: Headers): number {
  for (const name of ['ratelimit-reset', 'retry-after']) {
    const seconds = Number.parseInt(headers.get(name) ?? '', 10);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  }
  return FALLBACK_WAIT_SECONDS;
}

/** `/schedules/P1/overrides` → `overrides`, `/users` → `users`. */
function resourceOf(path: string): string {
  return path.split('/').filter(Boolean).at(-1) ?? path;
}
