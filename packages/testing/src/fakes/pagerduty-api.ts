import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FaultQueue } from './faults';
import { listen, type RunningServer } from './http-server';

/**
 * A fake PagerDuty REST API v2 (fixtures/pagerduty/README.md in this package): the read endpoints the
 * import uses, `Authorization: Token token=…` (401 otherwise, with PagerDuty's error body), classic
 * `offset`/`limit`/`more` paging with PagerDuty's cap of 100 (and, on request, a smaller `limit` chosen by
 * the server once, as the real API may), 403 for resources the token may not read, and 429 with the
 * `ratelimit-*` headers. Data comes from `data` or a fixture directory (`loadPagerDutyFixtures`).
 */

export type PagerDutyItem = Record<string, unknown>;

export interface PagerDutyDataSet {
  users: PagerDutyItem[];
  /** With `schedule_layers`; the list leaves them out unless `include[]=schedule_layers`. */
  schedules: PagerDutyItem[];
  /** Schedule id → its overrides. */
  overrides: Record<string, PagerDutyItem[]>;
  escalation_policies: PagerDutyItem[];
  /** Each with `integrations` references (no keys). */
  services: PagerDutyItem[];
  /** Whole integrations, with `integration_key` and their `service` reference. */
  integrations: PagerDutyItem[];
}

const FILES = ['users', 'schedules', 'overrides', 'escalation_policies', 'services', 'integrations'] as const;

export async function loadPagerDutyFixtures(dir: string): Promise<PagerDutyDataSet> {
  const data: Record<string, unknown> = {};
  for (const name of FILES) data[name] = JSON.parse(await readFile(join(dir, `${name}.json`), 'utf8'));
  return data as unknown as PagerDutyDataSet;
}

/** The list endpoints, by their path and the key their answer holds the items under. */
export type PagerDutyResource =
  | 'users'
  | 'schedules'
  | 'overrides'
  | 'escalation_policies'
  | 'services'
  | 'integrations';

export interface FakePagerDutyApiOptions {
  /** The REST API key expected as `Token token=<token>`. Default `pagerduty-test-token`. */
  token?: string;
  data?: Partial<PagerDutyDataSet>;
  fixturesDir?: string;
  /** The most items a page holds whatever `limit` asks (PagerDuty: 100). */
  maxLimit?: number;
}

export interface PagerDutyRequestLogEntry {
  method: string;
  /** Path and query as requested. */
  path: string;
  resource: PagerDutyResource | undefined;
  query: URLSearchParams;
  authorization: string | null;
  accept: string | null;
  status: number;
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers });
const error = (status: number, message: string, code: number) => json({ error: { message, code } }, status);
const RATE_LIMIT = 960;

export class FakePagerDutyApi {
  readonly requests: PagerDutyRequestLogEntry[] = [];
  /** Mutable: tests may add or change items between requests. */
  readonly data: PagerDutyDataSet;
  token: string;
  private readonly maxLimit: number;
  private readonly throttles = new FaultQueue<number>();
  private readonly shortPages = new FaultQueue<number>();
  private readonly forbidden = new Set<string>();
  private server!: RunningServer;

  constructor(data: PagerDutyDataSet, options: FakePagerDutyApiOptions) {
    this.data = data;
    this.token = options.token ?? 'pagerduty-test-token';
    this.maxLimit = options.maxLimit ?? 100;
  }

  get url(): string {
    return this.server.origin;
  }

  async start(): Promise<this> {
    this.server = await listen((req) => this.handle(req));
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  requestsTo(resource: PagerDutyResource): PagerDutyRequestLogEntry[] {
    return this.requests.filter((r) => r.resource === resource);
  }

  /** The next `times` requests to `resource` (default: any) answer 429, resetting in `reset` seconds. */
  throttle(options: { resource?: PagerDutyResource; times?: number; reset?: number } = {}): void {
    this.throttles.add(options.resource ?? '*', options.reset ?? 1, options.times ?? 1);
  }

  /** The next page of `resource` holds at most `limit` items, whatever was asked, and says so. */
  shortPageOnce(resource: PagerDutyResource, limit: number): void {
    this.shortPages.add(resource, limit, 1);
  }

  /** Requests to `resource` answer 403, as for a key whose user may not see it. */
  forbid(resource: PagerDutyResource): void {
    this.forbidden.add(resource);
  }

  private handle(req: Request): Response {
    const url = new URL(req.url);
    const route = routeOf(url.pathname);
    const entry: PagerDutyRequestLogEntry = {
      method: req.method,
      path: `${url.pathname}${url.search}`,
      resource: route?.resource,
      query: url.searchParams,
      authorization: req.headers.get('authorization'),
      accept: req.headers.get('accept'),
      status: 0,
    };
    this.requests.push(entry);
    const response = this.answer(req, url, route);
    entry.status = response.status;
    return response;
  }

  private answer(req: Request, url: URL, route: Route | undefined): Response {
    if (req.headers.get('authorization') !== `Token token=${this.token}`) {
      return error(401, 'Invalid Credentials', 2006);
    }
    if (!route) return error(404, 'Not Found', 2100);
    if (req.method !== 'GET') return error(405, 'Method not allowed', 2000);
    if (this.forbidden.has(route.resource)) return error(403, 'Access Denied', 2010);
    const reset = this.throttles.take(route.resource);
    if (reset !== undefined) {
      return json({ error: { message: 'Rate Limit Exceeded', code: 2020 } }, 429, {
        'ratelimit-limit': String(RATE_LIMIT),
        'ratelimit-remaining': '0',
        'ratelimit-reset': String(reset),
      });
    }
    switch (route.kind) {
      case 'list':
        return this.list(route.resource, this.data[route.resource as 'users'], url, (item) =>
          route.resource === 'schedules' && !url.searchParams.getAll('include[]').includes('schedule_layers')
            ? withoutLayers(item)
            : item,
        );
      case 'overrides': {
        // Both are required by PagerDuty; it answers 400 without them.
        if (!url.searchParams.get('since') || !url.searchParams.get('until')) {
          return error(400, 'Invalid Input Provided: since and until are required', 2001);
        }
        const schedule = this.data.schedules.find((s) => s.id === route.id);
        if (!schedule) return error(404, 'Not Found', 2100);
        return this.list('overrides', this.data.overrides[route.id] ?? [], url, (item) => item);
      }
      case 'user':
      case 'schedule': {
        const items = route.kind === 'user' ? this.data.users : this.data.schedules;
        const item = items.find((i) => i.id === route.id);
        return item ? json({ [route.kind]: item }) : error(404, 'Not Found', 2100);
      }
      case 'integration': {
        const item = this.data.integrations.find(
          (i) => i.id === route.id && (i.service as { id?: string } | undefined)?.id === route.serviceId,
        );
        return item ? json({ integration: item }) : error(404, 'Not Found', 2100);
      }
    }
  }

  private list(
    resource: PagerDutyResource,
    items: PagerDutyItem[],
    url: URL,
    shape: (item: PagerDutyItem) => PagerDutyItem,
  ): Response {
    const offset = Math.max(0, Number.parseInt(url.searchParams.get('offset') ?? '0', 10) || 0);
    const asked = Number.parseInt(url.searchParams.get('limit') ?? '25', 10) || 25;
    const limit = Math.min(asked, this.maxLimit, this.shortPages.take(resource) ?? Number.POSITIVE_INFINITY);
    const page = items.slice(offset, offset + limit).map(shape);
    return json({
      [resource]: page,
      limit,
      offset,
      more: offset + page.length < items.length,
      total: url.searchParams.get('total') === 'true' ? items.length : null,
    });
  }
}

type Route =
  | { kind: 'list'; resource: PagerDutyResource }
  | { kind: 'overrides'; resource: 'overrides'; id: string }
  | { kind: 'user'; resource: 'users'; id: string }
  | { kind: 'schedule'; resource: 'schedules'; id: string }
  | { kind: 'integration'; resource: 'integrations'; serviceId: string; id: string };

function routeOf(path: string): Route | undefined {
  const parts = path.split('/').filter(Boolean);
  const [first, id, sub, subId] = parts;
  if (
    parts.length === 1 &&
    (first === 'users' || first === 'schedules' || first === 'escalation_policies' || first === 'services')
  ) {
    return { kind: 'list', resource: first };
  }
  if (parts.length === 2 && first === 'users') return { kind: 'user', resource: 'users', id: id! };
  if (parts.length === 2 && first === 'schedules')
    return { kind: 'schedule', resource: 'schedules', id: id! };
  if (parts.length === 3 && first === 'schedules' && sub === 'overrides') {
    return { kind: 'overrides', resource: 'overrides', id: id! };
  }
  if (parts.length === 4 && first === 'services' && sub === 'integrations') {
    return { kind: 'integration', resource: 'integrations', serviceId: id!, id: subId! };
  }
  return undefined;
}

function withoutLayers(schedule: PagerDutyItem): PagerDutyItem {
  const { schedule_layers: _, ...rest } = schedule;
  return rest;
}

export async function startFakePagerDutyApi(
  options: FakePagerDutyApiOptions = {},
): Promise<FakePagerDutyApi> {
  let data: PagerDutyDataSet;
  if (options.data) {
    data = {
      users: [],
      schedules: [],
      overrides: {},
      escalation_policies: [],
      services: [],
      integrations: [],
      ...options.data,
    };
  } else if (options.fixturesDir) data = await loadPagerDutyFixtures(options.fixturesDir);
  else throw new Error('startFakePagerDutyApi: pass `data` or `fixturesDir` (pagerdutyFixturesDir)');
  return new FakePagerDutyApi(data, options).start();
}
