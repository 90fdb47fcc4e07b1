import { AppError, OpsgenieItem, OpsgenieList } from '@firebreak/schema';
import type { OnCallProgress } from './oncall-client';
import {
  badOpsgenieUrl,
  keyRefused,
  keyWithoutConfigurationAccess,
  notOpsgenie,
  opsgenieFailed,
  opsgenieStillThrottled,
  opsgenieTimedOut,
  opsgenieUnreachable,
} from './opsgenie-errors';

/**
 * A reader of Opsgenie's REST API v2 (the fake in packages/testing behaves the same): `Authorization:
 * GenieKey <key>`, lists page by page with `offset`/`limit` while `paging.next` is given, and 429 waited
 * out for `X-RateLimit-Period-In-Sec` seconds (Opsgenie sends no `Retry-After`), a bounded number of times.
 */

export interface OpsgenieClientOptions {
  /** `https://api.opsgenie.com` or `https://api.eu.opsgenie.com`; endpoints live under `<url>/v2/`. */
  url: string;
  apiKey: string;
  fetch?: typeof fetch;
  /** Per request, body included. */
  timeoutMs?: number;
  maxThrottleRetries?: number;
  /** A longer wait than this is not waited out: the import fails with 503 and the wait. */
  maxRetryAfterSeconds?: number;
  sleep?: (ms: number) => Promise<void>;
  /** `limit`: 100 is the most Opsgenie allows. */
  pageSize?: number;
  onProgress?: (progress: OpsgenieProgress) => void;
}

/** The same events as the OnCall reader's, so the CLI shows both alike. */
export type OpsgenieProgress = OnCallProgress;

export interface OpsgenieClient {
  /** Every item of `/v2/<path>` (a list), in the API's order. */
  list(path: string, query?: Record<string, string>): Promise<unknown[]>;
  /** The `data` of `/v2/<path>` (one item). */
  get(path: string): Promise<unknown>;
}

const DEFAULTS = { timeoutMs: 30_000, maxThrottleRetries: 5, maxRetryAfterSeconds: 60, pageSize: 100 };
// Opsgenie's period header is 1 or 60; without one, a short wait.
const FALLBACK_WAIT_SECONDS = 1;
// Far beyond any real account; only a server whose `next` never ends gets here.
const MAX_PAGES = 10_000;

export function createOpsgenieClient(options: OpsgenieClientOptions): OpsgenieClient {
  const base = baseUrl(options.url);
  const settings = {
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    maxThrottleRetries: options.maxThrottleRetries ?? DEFAULTS.maxThrottleRetries,
    maxRetryAfterSeconds: options.maxRetryAfterSeconds ?? DEFAULTS.maxRetryAfterSeconds,
    pageSize: options.pageSize ?? DEFAULTS.pageSize,
  };
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));

  async function getJson(path: string, query: URLSearchParams, resource: string): Promise<unknown> {
    const where = `/v2/${path}`;
    const search = query.size > 0 ? `?${query}` : '';
    for (let attempt = 0; ; attempt += 1) {
      let response: Response;
      try {
        response = await doFetch(`${base}${where}${search}`, {
          headers: { authorization: `GenieKey ${options.apiKey}`, accept: 'application/json' },
          signal: AbortSignal.timeout(settings.timeoutMs),
        });
        if (response.status === 429) {
          const wait = throttleSeconds(response.headers);
          await response.body?.cancel();
          if (attempt >= settings.maxThrottleRetries || wait > settings.maxRetryAfterSeconds) {
            throw opsgenieStillThrottled(where, wait);
          }
          options.onProgress?.({ kind: 'throttled', resource, waitSeconds: wait });
          await sleep(wait * 1000);
          continue;
        }
        return await readBody(response, where);
      } catch (error) {
        throw asAppError(error, where, new URL(base).origin, settings.timeoutMs);
      }
    }
  }

  return {
    async list(path, query = {}) {
      const resource = path.split('/').at(-1) ?? path;
      const items: unknown[] = [];
      let offset = 0;
      for (let page = 1; page <= MAX_PAGES; page += 1) {
        const params = new URLSearchParams({
          ...query,
          offset: String(offset),
          limit: String(settings.pageSize),
        });
        const body = OpsgenieList.safeParse(await getJson(path, params, resource));
        if (!body.success) throw notOpsgenie(`/v2/${path}`, 'answered JSON without a `data` list');
        items.push(...body.data.data);
        options.onProgress?.({ kind: 'page', resource, page, items: items.length });
        const next = body.data.paging?.next;
        if (!next || body.data.data.length === 0) return items;
        // The offset, not the link: the link names the host Opsgenie thinks it is, which a proxy may change.
        const nextOffset = offsetOf(next) ?? offset + body.data.data.length;
        if (nextOffset <= offset)
          throw notOpsgenie(`/v2/${path}`, `links offset ${offset} to offset ${nextOffset}`);
        offset = nextOffset;
      }
      throw notOpsgenie(`/v2/${path}`, `has more than ${MAX_PAGES} pages`);
    },
    async get(path) {
      const resource = path.split('/')[0] ?? path;
      const body = OpsgenieItem.safeParse(await getJson(path, new URLSearchParams(), resource));
      if (!body.success || body.data.data === undefined) {
        throw notOpsgenie(`/v2/${path}`, 'answered JSON without `data`');
      }
      return body.data.data;
    },
  };
}

/** Origin and path, without credentials, query or trailing slash. */
function baseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw badOpsgenieUrl(`"${text}" is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw badOpsgenieUrl('The URL must be http:// or https://.');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

async function readBody(response: Response, where: string): Promise<unknown> {
  if (response.status === 401) {
    await response.body?.cancel();
    throw keyRefused();
  }
  if (response.status === 403) {
    await response.body?.cancel();
    throw keyWithoutConfigurationAccess(where);
  }
  if (response.status >= 500) throw opsgenieFailed(where, response.status);
  if (!response.ok) throw notOpsgenie(where, `answered HTTP ${response.status}`);
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    const type = response.headers.get('content-type') ?? 'no content type';
    throw notOpsgenie(where, `answered something that is not JSON (${type})`);
  }
}

function asAppError(error: unknown, where: string, origin: string, timeoutMs: number): unknown {
  if (error instanceof AppError || !(error instanceof Error)) return error;
  if (error.name === 'TimeoutError' || error.name === 'AbortError') {
    return opsgenieTimedOut(where, timeoutMs / 1000);
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return opsgenieUnreachable(origin, cause?.code ?? cause?.message ?? error.message);
}

/** `X-RateLimit-Period-In-Sec`, else `Retry-After`, else 1 s. */
export function throttleSeconds(headers: Headers): number {
  for (const name of ['x-ratelimit-period-in-sec', 'retry-after']) {
    const seconds = Number.parseInt(headers.get(name) ?? '', 10);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  }
  return FALLBACK_WAIT_SECONDS;
}

function offsetOf(link: string): number | undefined {
  try {
    const offset = Number.parseInt(new URL(link).searchParams.get('offset') ?? '', 10);
    return Number.isFinite(offset) ? offset : undefined;
  } catch {
    return undefined;
  }
}
