import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FaultQueue } from './faults';
import { listen, type RunningServer } from './http-server';

/**
 * A fake Opsgenie REST API v2 (fixtures/opsgenie/README.md in this package), the read endpoints the
 * import uses: `Authorization: GenieKey <key>` (401 for an unknown key, 403 for a key without
 * configuration access), `offset`/`limit` paging with an absolute `paging.next`, list items without
 * what only the detail shows (team members, integration API keys; rotations only with
 * `expand=rotation`), and 429 with Opsgenie's `X-RateLimit-*` headers.
 */

export type OpsgenieItem = Record<string, unknown>;

export interface OpsgenieDataSet {
  users: OpsgenieItem[];
  /** With `members`, which only `GET /v2/teams/{id}` shows. */
  teams: OpsgenieItem[];
  /** With `rotations`, which only `expand=rotation` shows. */
  schedules: OpsgenieItem[];
  /** Schedule id → overrides. */
  overrides: Record<string, OpsgenieItem[]>;
  escalations: OpsgenieItem[];
  /** With `apiKey`, which only `GET /v2/integrations/{id}` shows. */
  integrations: OpsgenieItem[];
}

export type OpsgenieResource = 'users' | 'teams' | 'schedules' | 'overrides' | 'escalations' | 'integrations';

export interface FakeOpsgenieApiOptions {
  /** A key with configuration access. Default `opsgenie-test-key`. */
  apiKey?: string;
  /** A valid key without configuration access: 403. Default `opsgenie-alerts-only-key`. */
  keyWithoutConfigAccess?: string;
  data?: Partial<OpsgenieDataSet>;
  /** A directory of the data set's files, e.g. `opsgenieFixturesDir`. */
  fixturesDir?: string;
  /** Test-only cap on `limit`, so that paging is exercised. */
  maxPageSize?: number;
}

export interface OpsgenieRequestLogEntry {
  method: string;
  path: string;
  resource: OpsgenieResource | undefined;
  query: Record<string, string>;
  authorization: string | null;
  status: number;
}

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

export class FakeOpsgenieApi {
  readonly requests: OpsgenieRequestLogEntry[] = [];
  readonly data: OpsgenieDataSet;
  readonly apiKey: string;
  readonly keyWithoutConfigAccess: string;
  maxPageSize: number | undefined;
  private readonly throttles = new FaultQueue<number>();
  private server!: RunningServer;

  constructor(data: OpsgenieDataSet, options: FakeOpsgenieApiOptions) {
    this.data = data;
    this.apiKey = options.apiKey ?? 'opsgenie-test-key';
    this.keyWithoutConfigAccess = options.keyWithoutConfigAccess ?? 'opsgenie-alerts-only-key';
    this.maxPageSize = options.maxPageSize;
  }

  /** What the importer takes as `url` (Opsgenie's is `https://api.opsgenie.com`). */
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

  requestsTo(resource: OpsgenieResource): OpsgenieRequestLogEntry[] {
    return this.requests.filter((r) => r.resource === resource);
  }

  /** The next `times` requests to `resource` (default any) answer 429, asking to wait `periodSeconds`. */
  throttle(options: { resource?: OpsgenieResource; times?: number; periodSeconds?: number } = {}): void {
    this.throttles.add(options.resource ?? '*', options.periodSeconds ?? 1, options.times ?? 1);
  }

  private handle(req: Request): Response {
    const url = new URL(req.url);
    const route = routeOf(url.pathname);
    const entry: OpsgenieRequestLogEntry = {
      method: req.method,
      path: `${url.pathname}${url.search}`,
      resource: route?.resource,
      query: Object.fromEntries(url.searchParams),
      authorization: req.headers.get('authorization'),
      status: 0,
    };
    this.requests.push(entry);
    const response = this.answer(req, url, route);
    entry.status = response.status;
    return response;
  }

  private answer(req: Request, url: URL, route: Route | undefined): Response {
    const authorization = req.headers.get('authorization') ?? '';
    const key = authorization.startsWith('GenieKey ') ? authorization.slice('GenieKey '.length) : '';
    if (key === this.keyWithoutConfigAccess) {
      return reply({ message: 'You are not authorized for this action' }, 403);
    }
    if (key !== this.apiKey) return reply({ message: 'Could not authenticate' }, 401);
    if (!route) return reply({ message: 'Not found' }, 404);
    if (req.method !== 'GET') return reply({ message: 'Method not allowed' }, 405);
    const wait = this.throttles.take(route.resource);
    if (wait !== undefined) {
      return reply({ message: 'Too many requests' }, 429, {
        'x-ratelimit-state': 'THROTTLED',
        'x-ratelimit-reason': 'CONFIGURATION',
        'x-ratelimit-period-in-sec': String(wait),
      });
    }
    switch (route.resource) {
      case 'overrides':
        return this.page(url, this.data.overrides[route.id!] ?? []);
      case 'schedules': {
        const expand = (url.searchParams.get('expand') ?? '').split(',').includes('rotation');
        return this.page(
          url,
          this.data.schedules.map((s) => (expand ? s : omit(s, 'rotations'))),
        );
      }
      default: {
        const items = this.data[route.resource];
        if (route.id === undefined) {
          const hidden = route.resource === 'teams' ? 'members' : 'apiKey';
          return this.page(
            url,
            items.map((item) => omit(item, hidden)),
          );
        }
        const item = items.find((i) => i.id === route.id);
        return item ? reply({ data: item }) : reply({ message: `${route.resource} not found` }, 404);
      }
    }
  }

  // Every list is paged, though Opsgenie answers some whole: deliberate, the client must cope either way.
  private page(url: URL, items: OpsgenieItem[]): Response {
    const offset = Math.max(0, Number.parseInt(url.searchParams.get('offset') ?? '0', 10) || 0);
    const asked = Number.parseInt(url.searchParams.get('limit') ?? '', 10) || DEFAULT_LIMIT;
    const limit = Math.min(asked, MAX_LIMIT, this.maxPageSize ?? MAX_LIMIT);
    const link = (at: number) => {
      const next = new URL(url);
      next.searchParams.set('offset', String(at));
      next.searchParams.set('limit', String(limit));
      return next.toString();
    };
    const paging: Record<string, string> = { first: link(0) };
    if (offset + limit < items.length) paging.next = link(offset + limit);
    if (offset > 0) paging.prev = link(Math.max(0, offset - limit));
    return reply({ totalCount: items.length, data: items.slice(offset, offset + limit), paging });
  }
}

interface Route {
  resource: OpsgenieResource;
  id?: string;
}

function routeOf(path: string): Route | undefined {
  const parts = path.replace(/\/+$/, '').split('/').filter(Boolean);
  if (parts[0] !== 'v2') return undefined;
  const [, resource, id, sub] = parts;
  if (resource === 'schedules' && id && sub === 'overrides' && parts.length === 4) {
    return { resource: 'overrides', id };
  }
  if (parts.length > 3) return undefined;
  if (resource === 'users' || resource === 'escalations' || resource === 'schedules') {
    return id === undefined ? { resource } : { resource, id };
  }
  if (resource === 'teams' || resource === 'integrations') return { resource, id };
  return undefined;
}

function reply(body: Record<string, unknown>, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json({ ...body, took: 0.01, requestId: crypto.randomUUID() }, { status, headers });
}

function omit(item: OpsgenieItem, key: string): OpsgenieItem {
  const { [key]: _, ...rest } = item;
  return rest;
}

const FILES = ['users', 'teams', 'schedules', 'escalations', 'integrations'] as const;

export async function loadOpsgenieFixtures(dir: string): Promise<OpsgenieDataSet> {
  const read = async (name: string) =>
    JSON.parse(await readFile(join(dir, `${name}.json`), 'utf8')) as unknown;
  const data: Partial<OpsgenieDataSet> = {
    overrides: (await read('overrides')) as OpsgenieDataSet['overrides'],
  };
  for (const name of FILES) data[name] = (await read(name)) as OpsgenieItem[];
  return data as OpsgenieDataSet;
}

export async function startFakeOpsgenieApi(options: FakeOpsgenieApiOptions = {}): Promise<FakeOpsgenieApi> {
  let data: OpsgenieDataSet;
  if (options.data) {
    data = {
      users: [],
      teams: [],
      schedules: [],
      overrides: {},
      escalations: [],
      integrations: [],
      ...options.data,
    };
  } else if (options.fixturesDir) data = await loadOpsgenieFixtures(options.fixturesDir);
  else throw new Error('startFakeOpsgenieApi: pass `data` or `fixturesDir`');
  return new FakeOpsgenieApi(data, options).start();
}
