import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { oncallFixturesDir } from '../fixtures';
import {
  type FakeOnCallApi,
  loadOnCallFixtures,
  ONCALL_RESOURCES,
  type OnCallItem,
  startFakeOnCallApi,
} from './oncall-api';

const TOKEN = 'oncall-test-token';
const users = (n: number): OnCallItem[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `U${String(i + 1).padStart(12, 'A')}`,
    email: `u${i + 1}@x.dev`,
  }));

let api: FakeOnCallApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function get(path: string, token: string | null = TOKEN) {
  const headers: Record<string, string> = token === null ? {} : { authorization: token };
  const res = await fetch(`${api!.url}${path}`, { headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

describe('auth', () => {
  it('accepts only the raw token; a missing, Bearer-prefixed or wrong token gets 403 Invalid token.', async () => {
    api = await startFakeOnCallApi({ data: { users: users(1) } });
    for (const token of [null, `Bearer ${TOKEN}`, 'wrong']) {
      expect(await get('/api/v1/users/', token)).toMatchObject({
        status: 403,
        body: { detail: 'Invalid token.' },
      });
    }
    expect((await get('/api/v1/users/')).status).toBe(200);
  });
});

describe('pagination', () => {
  it('answers the envelope with its keys in order, 100 users a page by default', async () => {
    api = await startFakeOnCallApi({ data: { users: users(120) } });
    const { body } = await get('/api/v1/users/');
    expect(Object.keys(body)).toEqual([
      'count',
      'next',
      'previous',
      'results',
      'page_size',
      'current_page_number',
      'total_pages',
    ]);
    expect(body).toMatchObject({
      count: 120,
      next: `${api.url}/api/v1/users/?page=2`,
      previous: null,
      page_size: 100,
      current_page_number: 1,
      total_pages: 2,
    });
    expect(body.results).toHaveLength(100);
  });

  it('uses 50 a page for the other endpoints', async () => {
    const shifts = Array.from({ length: 51 }, (_, i) => ({ id: `O${i}` }));
    api = await startFakeOnCallApi({ data: { on_call_shifts: shifts } });
    const { body } = await get('/api/v1/on_call_shifts/');
    expect(body).toMatchObject({ count: 51, page_size: 50, total_pages: 2 });
  });

  it('builds absolute links with sorted keys and drops page from the link back to page 1', async () => {
    api = await startFakeOnCallApi({ data: { users: users(7) } });
    const base = `${api.url}/api/v1/users/`;
    const page2 = (await get('/api/v1/users/?perpage=2&page=2')).body;
    expect(page2).toMatchObject({
      next: `${base}?page=3&perpage=2`,
      previous: `${base}?perpage=2`,
      page_size: 2,
      current_page_number: 2,
      total_pages: 4,
    });
    expect((page2.results as OnCallItem[]).map((u) => u.email)).toEqual(['u3@x.dev', 'u4@x.dev']);
    expect((await get('/api/v1/users/?perpage=2&page=3')).body.previous).toBe(`${base}?page=2&perpage=2`);
    const last = (await get('/api/v1/users/?page=4&perpage=2')).body;
    expect(last).toMatchObject({ next: null, current_page_number: 4 });
    expect(last.results).toEqual([{ id: users(7)[6]!.id, email: 'u7@x.dev' }]);
  });

  it('returns the last page past the end and page 1 for a bad page or perpage', async () => {
    api = await startFakeOnCallApi({ data: { users: users(5) } });
    expect((await get('/api/v1/users/?perpage=2&page=99')).body).toMatchObject({
      current_page_number: 3,
      next: null,
      results: [{ email: 'u5@x.dev' }],
    });
    expect((await get('/api/v1/users/?perpage=2&page=abc')).body.current_page_number).toBe(1);
    expect((await get('/api/v1/users/?perpage=2&page=0')).body.current_page_number).toBe(1);
    expect((await get('/api/v1/users/?perpage=-3')).body).toMatchObject({ page_size: 100, total_pages: 1 });
  });

  it('answers an empty collection with count 0 and one page', async () => {
    api = await startFakeOnCallApi({ data: { users: users(1) } });
    expect((await get('/api/v1/teams/')).body).toEqual({
      count: 0,
      next: null,
      previous: null,
      results: [],
      page_size: 50,
      current_page_number: 1,
      total_pages: 1,
    });
  });

  it('serves paths with or without the trailing slash and links to the path as requested', async () => {
    api = await startFakeOnCallApi({ data: { users: users(3) } });
    expect((await get('/api/v1/users?perpage=2')).body.next).toBe(`${api.url}/api/v1/users?page=2&perpage=2`);
  });

  it('does not cap perpage in the slice, only the reported page_size (real API)', async () => {
    api = await startFakeOnCallApi({ data: { users: users(150) } });
    const { body } = await get('/api/v1/users/?perpage=500');
    expect(body).toMatchObject({ page_size: 100, total_pages: 1, next: null });
    expect(body.results).toHaveLength(150);
  });

  it('caps the default and perpage with maxPageSize, reporting the size used', async () => {
    api = await startFakeOnCallApi({ data: { users: users(5) }, maxPageSize: 2 });
    expect((await get('/api/v1/users/')).body).toMatchObject({ page_size: 2, total_pages: 3 });
    expect((await get('/api/v1/users/?perpage=10')).body).toMatchObject({ page_size: 2, total_pages: 3 });
  });

  it('serves under a path prefix like Grafana Cloud, and nowhere else', async () => {
    api = await startFakeOnCallApi({ data: { users: users(3) }, pathPrefix: '/oncall', maxPageSize: 2 });
    expect(api.url).toMatch(/\/oncall$/);
    expect((await get('/api/v1/users/')).body.next).toBe(`${api.url}/api/v1/users/?page=2`);
    const res = await fetch(`${new URL(api.url).origin}/api/v1/users/`, {
      headers: { authorization: TOKEN },
    });
    expect(res.status).toBe(404);
  });
});

describe('throttling, filters, details, log', () => {
  it('answers 429 with Retry-After, RateLimit-Reset and the DRF message, then serves the retry', async () => {
    api = await startFakeOnCallApi({ data: { users: users(1) } });
    api.throttle({ resource: 'users' });
    const throttled = await get('/api/v1/users/');
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('1');
    expect(throttled.headers.get('ratelimit-reset')).toBe('1');
    expect(throttled.body).toEqual({ detail: 'Request was throttled. Expected available in 1 second.' });
    expect((await get('/api/v1/users/')).status).toBe(200);
  });

  it('throttles N times with plural seconds; teams sends no RateLimit-Reset; a bad token still gets 403', async () => {
    api = await startFakeOnCallApi({ data: {} });
    api.throttle({ times: 2, retryAfter: 3 });
    expect((await get('/api/v1/teams/', 'wrong')).status).toBe(403);
    const first = await get('/api/v1/teams/');
    expect(first.body.detail).toBe('Request was throttled. Expected available in 3 seconds.');
    expect(first.headers.get('retry-after')).toBe('3');
    expect(first.headers.get('ratelimit-reset')).toBeNull();
    expect((await get('/api/v1/schedules/')).headers.get('ratelimit-reset')).toBe('3');
    expect((await get('/api/v1/schedules/')).status).toBe(200);
  });

  it('applies the documented filters', async () => {
    api = await startFakeOnCallApi({
      data: {
        users: [{ id: 'U1', email: 'Chen.Wei@x.dev', username: 'chen' }, ...users(2)],
        alert_groups: [
          { id: 'I1', state: 'firing' },
          { id: 'I2', state: 'resolved' },
        ],
      },
    });
    expect((await get('/api/v1/users/?email=chen.wei@x.dev')).body).toMatchObject({
      count: 1,
      results: [{ id: 'U1' }],
    });
    expect((await get('/api/v1/alert_groups/?state=new')).body).toMatchObject({
      count: 1,
      results: [{ id: 'I1' }],
    });
    expect((await get('/api/v1/alert_groups/?state=bogus')).status).toBe(400);
  });

  it('serves one item by id and 404 Not found. otherwise', async () => {
    api = await startFakeOnCallApi({ data: { users: users(2) } });
    const id = users(2)[1]!.id as string;
    expect((await get(`/api/v1/users/${id}/`)).body).toEqual({ id, email: 'u2@x.dev' });
    expect(await get('/api/v1/users/UNOPE/')).toMatchObject({ status: 404, body: { detail: 'Not found.' } });
    expect((await get('/api/v1/nothing/')).status).toBe(404);
  });

  it('logs every request with path, resource, token and status', async () => {
    api = await startFakeOnCallApi({ data: { users: users(1) } });
    await get('/api/v1/users/?page=1', 'bad');
    await get('/api/v1/users/?page=1');
    expect(api.requestsTo('users').map((r) => [r.path, r.authorization, r.status])).toEqual([
      ['/api/v1/users/?page=1', 'bad', 403],
      ['/api/v1/users/?page=1', TOKEN, 200],
    ]);
    expect(api.requests[0]?.query).toEqual({ page: '1' });
  });
});

describe('data sources', () => {
  it('refuses to start without data, and loadOnCallFixtures refuses a directory without fixtures', async () => {
    const saved = process.env.ONCALL_FIXTURES_DIR;
    delete process.env.ONCALL_FIXTURES_DIR;
    try {
      await expect(startFakeOnCallApi()).rejects.toThrow(/data.*fixturesDir/);
    } finally {
      if (saved !== undefined) process.env.ONCALL_FIXTURES_DIR = saved;
    }
    await expect(loadOnCallFixtures(tmpdir())).rejects.toThrow(/no <resource>\.json/);
  });
});

describe('the Grafana OnCall fixtures', () => {
  const fixturesDir = oncallFixturesDir;

  it('serves every fixture file in order through small pages, following next until null', async () => {
    api = await startFakeOnCallApi({ fixturesDir, maxPageSize: 2 });
    for (const resource of ONCALL_RESOURCES) {
      const expected = JSON.parse(await readFile(`${fixturesDir}/${resource}.json`, 'utf8')) as unknown[];
      const seen: unknown[] = [];
      let next: string | null = `${api.url}/api/v1/${resource}/`;
      while (next) {
        const res = await fetch(next, { headers: { authorization: TOKEN } });
        const page = (await res.json()) as { count: number; next: string | null; results: unknown[] };
        expect(page.count).toBe(expected.length);
        seen.push(...page.results);
        next = page.next;
      }
      expect(seen, resource).toEqual(expected);
    }
    const userPages = api.requestsTo('users').length;
    expect(userPages).toBe(3); // 6 users, 2 a page
  });

  it('loads the same data with loadOnCallFixtures', async () => {
    const data = await loadOnCallFixtures(fixturesDir);
    expect(data.users).toHaveLength(6);
    expect(data.escalation_policies).toHaveLength(8);
    api = await startFakeOnCallApi({ data });
    expect((await get('/api/v1/integrations/')).body.count).toBe(4);
  });
});
