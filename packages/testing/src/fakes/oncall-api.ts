import { FaultQueue } from './faults';
import { listen, type RunningServer } from './http-server';
import {
  completeDataSet,
  defaultPageSize,
  isOnCallResource,
  loadOnCallFixtures,
  type OnCallDataSet,
  type OnCallResource,
} from './oncall-api/data';
import { applyFilters } from './oncall-api/filters';
import { paginate } from './oncall-api/pagination';

/**
 * A fake Grafana OnCall public API v1 (fixtures/oncall/README.md in this package): the eight
 * read endpoints, raw-token auth, page-number pagination with OnCall's exact envelope, DRF-style
 * throttling. Data comes from `data` or from a fixture directory (`loadOnCallFixtures`).
 */

export interface FakeOnCallApiOptions {
  /** Expected raw `Authorization` value (no `Bearer `). Default `oncall-test-token`. */
  token?: string;
  /** The data set to serve; missing endpoints are empty. Takes precedence over `fixturesDir`. */
  data?: Partial<OnCallDataSet>;
  /** A directory of `<resource>.json` files, e.g. `oncallFixturesDir`. Falls back to the
   * `ONCALL_FIXTURES_DIR` environment variable; the fake does not guess a path. */
  fixturesDir?: string;
  /** Test-only page-size cap (default and `perpage`), so that pagination is exercised. */
  maxPageSize?: number;
  /** Serve under a path, like Grafana Cloud's `…/oncall`, to catch clients that drop the base path. */
  pathPrefix?: string;
}

export interface OnCallRequestLogEntry {
  method: string;
  /** Path and query as requested. */
  path: string;
  resource: OnCallResource | undefined;
  query: Record<string, string>;
  authorization: string | null;
  status: number;
  time: Date;
}

const LIST_PATH = /^\/api\/v1\/([a-z_]+)(?:\/([^/]+))?\/?$/;
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers });

export class FakeOnCallApi {
  readonly requests: OnCallRequestLogEntry[] = [];
  /** Mutable: tests may add or change items between requests. */
  readonly data: OnCallDataSet;
  token: string;
  maxPageSize: number | undefined;
  private readonly pathPrefix: string;
  private readonly throttles = new FaultQueue<number>();
  private server!: RunningServer;

  constructor(data: OnCallDataSet, options: FakeOnCallApiOptions) {
    this.data = data;
    this.token = options.token ?? 'oncall-test-token';
    this.maxPageSize = options.maxPageSize;
    this.pathPrefix = (options.pathPrefix ?? '').replace(/\/+$/, '');
  }

  /** The "OnCall API URL" to hand to the importer; endpoints live under `<url>/api/v1/`. */
  get url(): string {
    return `${this.server.origin}${this.pathPrefix}`;
  }

  async start(): Promise<this> {
    this.server = await listen((req) => this.handle(req));
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  requestsTo(resource: OnCallResource): OnCallRequestLogEntry[] {
    return this.requests.filter((r) => r.resource === resource);
  }

  /**
   * The next `times` requests to `resource` (default: any) answer 429 like DRF's throttle, after auth
   * as in DRF. `Retry-After` and (except on teams, which lacks the mixin) `RateLimit-Reset` carry N.
   */
  throttle(options: { resource?: OnCallResource; times?: number; retryAfter?: number } = {}): void {
    this.throttles.add(options.resource ?? '*', options.retryAfter ?? 1, options.times ?? 1);
  }

  private handle(req: Request): Response {
    const url = new URL(req.url);
    const match = url.pathname.startsWith(`${this.pathPrefix}/`)
      ? LIST_PATH.exec(url.pathname.slice(this.pathPrefix.length))
      : null;
    const resource = match?.[1] && isOnCallResource(match[1]) ? match[1] : undefined;
    const entry: OnCallRequestLogEntry = {
      method: req.method,
      path: `${url.pathname}${url.search}`,
      resource,
      query: Object.fromEntries(url.searchParams),
      authorization: req.headers.get('authorization'),
      status: 0,
      time: new Date(),
    };
    this.requests.push(entry);
    const response = this.answer(req, url, resource, match?.[2]);
    entry.status = response.status;
    return response;
  }

  private answer(req: Request, url: URL, resource: OnCallResource | undefined, id?: string): Response {
    // A missing header, a `Bearer ` prefix or a wrong token all fail the same way: 403, not 401 (§1).
    if (req.headers.get('authorization') !== this.token) return json({ detail: 'Invalid token.' }, 403);
    if (!resource) return json({ detail: 'Not found.' }, 404);
    if (req.method !== 'GET') return json({ detail: `Method "${req.method}" not allowed.` }, 405);
    const wait = this.throttles.take(resource);
    if (wait !== undefined) return this.throttled(resource, wait);
    if (id !== undefined) {
      const item = this.data[resource].find((i) => i.id === id);
      return item ? json(item) : json({ detail: 'Not found.' }, 404);
    }
    const filtered = applyFilters(resource, url, this.data);
    if ('error' in filtered) return json(filtered.error, 400);
    return json(
      paginate(filtered.items, {
        url,
        defaultSize: defaultPageSize(resource),
        maxPageSize: this.maxPageSize,
      }),
    );
  }

  private throttled(resource: OnCallResource, wait: number): Response {
    const headers: Record<string, string> = { 'retry-after': String(wait) };
    if (resource !== 'teams') headers['ratelimit-reset'] = String(wait);
    const detail = `Request was throttled. Expected available in ${wait} second${wait === 1 ? '' : 's'}.`;
    return json({ detail }, 429, headers);
  }
}

export async function startFakeOnCallApi(options: FakeOnCallApiOptions = {}): Promise<FakeOnCallApi> {
  const dir = options.fixturesDir ?? process.env.ONCALL_FIXTURES_DIR;
  let data: OnCallDataSet;
  if (options.data) data = completeDataSet(options.data);
  else if (dir) data = await loadOnCallFixtures(dir);
  else throw new Error('startFakeOnCallApi: pass `data` or `fixturesDir` (or set ONCALL_FIXTURES_DIR)');
  return new FakeOnCallApi(data, options).start();
}

export {
  loadOnCallFixtures,
  ONCALL_RESOURCES,
  type OnCallDataSet,
  type OnCallItem,
  type OnCallResource,
} from './oncall-api/data';
