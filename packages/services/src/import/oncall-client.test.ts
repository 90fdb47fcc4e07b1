import { createServer } from 'node:net';
import { AppError } from '@firebreak/schema';
import { type FakeOnCallApi, startFakeOnCallApi } from '@firebreak/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createOnCallClient, type OnCallClientOptions, retryAfterSeconds } from './oncall-client';

const TOKEN = 'oncall-test-token';
const users = Array.from({ length: 5 }, (_, i) => ({ id: `U${i}`, email: `u${i}@x.dev` }));
let fake: FakeOnCallApi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const client = (options: Partial<OnCallClientOptions> = {}) =>
  createOnCallClient({ url: fake?.url ?? 'http://127.0.0.1:9', token: TOKEN, ...options });
const respond = (response: () => Response): typeof fetch => (async () => response()) as typeof fetch;

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('pagination', () => {
  it('reads page after page with page/perpage until next is null, under a base path, raw token', async () => {
    fake = await startFakeOnCallApi({ data: { users }, maxPageSize: 2, pathPrefix: '/oncall' });
    expect(await client({ url: `${fake.url}/` }).list('users')).toEqual(users);
    const requests = fake.requestsTo('users');
    expect(requests.map((r) => r.query.page)).toEqual(['1', '2', '3']);
    expect(requests.every((r) => r.query.perpage === '100' && r.authorization === TOKEN)).toBe(true);
    expect(requests.every((r) => r.path.startsWith('/oncall/api/v1/users/?'))).toBe(true);
  });

  it('reads an empty collection as one page', async () => {
    fake = await startFakeOnCallApi({ data: {} });
    expect(await client().list('schedules')).toEqual([]);
    expect(fake.requestsTo('schedules')).toHaveLength(1);
  });

  it('refuses a next link that does not move forward instead of looping', async () => {
    const page = { count: 1, next: 'http://x/api/v1/users/?page=1', previous: null, results: [{}] };
    const error = await failure(client({ fetch: respond(() => Response.json(page)) }).list('users'));
    expect(error.message).toContain('links page 1 to page 1');
  });
});

describe('throttling', () => {
  it('waits Retry-After seconds after a 429 and retries; the answer is complete', async () => {
    fake = await startFakeOnCallApi({ data: { users }, maxPageSize: 2 });
    fake.throttle({ resource: 'users', times: 2, retryAfter: 3 });
    const waits: number[] = [];
    const items = await client({ sleep: async (ms) => void waits.push(ms) }).list('users');
    expect(items).toEqual(users);
    expect(waits).toEqual([3000, 3000]);
    expect(fake.requestsTo('users').map((r) => r.status)).toEqual([429, 429, 200, 200, 200]);
  });

  it('gives up after a bounded number of retries with 503 and the wait', async () => {
    fake = await startFakeOnCallApi({ data: { users } });
    fake.throttle({ resource: 'users', times: 10, retryAfter: 1 });
    const error = await failure(client({ maxThrottleRetries: 2, sleep: async () => {} }).list('users'));
    expect(error.code).toBe('service_unavailable');
    expect(error.details).toEqual({ retry_after_seconds: 1 });
    expect(fake.requestsTo('users')).toHaveLength(3);
  });

  it('does not wait longer than the limit: 503 at once', async () => {
    fake = await startFakeOnCallApi({ data: { users } });
    fake.throttle({ resource: 'users', retryAfter: 350 });
    const error = await failure(client({ sleep: async () => expect.fail('must not wait') }).list('users'));
    expect(error.message).toContain('it asks to wait 350 s');
  });

  it('reads the wait from Retry-After, else RateLimit-Reset, else 5 s', () => {
    expect(retryAfterSeconds(new Headers({ 'retry-after': '7', 'ratelimit-reset': '9' }))).toBe(7);
    expect(retryAfterSeconds(new Headers({ 'ratelimit-reset': '350' }))).toBe(350);
    expect(retryAfterSeconds(new Headers())).toBe(5);
  });
});

describe('errors say what to fix', () => {
  it('a refused token (OnCall answers 403, not 401) is 400 at api_token with OnCall’s detail', async () => {
    fake = await startFakeOnCallApi({ data: { users } });
    const error = await failure(client({ token: 'wrong' }).list('users'));
    expect(error.code).toBe('validation_failed');
    expect(error.message).toBe('Grafana OnCall refused the API token (HTTP 403: Invalid token.).');
    expect(error.details).toEqual([{ path: 'api_token', message: error.message }]);
    expect(JSON.stringify(error)).not.toContain('wrong');
  });

  it('a URL that is not the OnCall API (404, HTML) is 400 at url', async () => {
    fake = await startFakeOnCallApi({ data: { users }, pathPrefix: '/oncall' });
    const missingPrefix = await failure(client({ url: fake.url.replace('/oncall', '') }).list('users'));
    expect(missingPrefix.details).toEqual([
      { path: 'url', message: expect.stringContaining('answered HTTP 404') },
    ]);
    const html = () => new Response('<html>Grafana</html>', { headers: { 'content-type': 'text/html' } });
    const notJson = await failure(client({ fetch: respond(html) }).list('users'));
    expect(notJson.message).toContain('not JSON (text/html)');
    const notPage = await failure(
      client({ fetch: respond(() => Response.json({ hello: 1 })) }).list('users'),
    );
    expect(notPage.message).toContain('without `results` and `next`');
  });

  it('a malformed URL, or one nothing answers at, is 400 at url', async () => {
    expect(() => client({ url: 'not a url' })).toThrow(
      expect.objectContaining({ details: [{ path: 'url', message: '"not a url" is not a URL.' }] }),
    );
    expect(() => client({ url: 'ftp://x.dev' })).toThrow(
      expect.objectContaining({ code: 'validation_failed' }),
    );
    const closed = await closedPort();
    const refused = await failure(client({ url: `http://127.0.0.1:${closed}` }).list('users'));
    expect(refused.message).toMatch(
      /^Could not connect to Grafana OnCall at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
    );
  });

  it('a server that does not answer in time is 503', async () => {
    const hang: typeof fetch = (_url, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
      );
    const error = await failure(client({ fetch: hang, timeoutMs: 50 }).list('users'));
    expect(error.code).toBe('service_unavailable');
    expect(error.message).toBe('Grafana OnCall did not answer /api/v1/users/ within 0.05 s.');
  });

  it('a 5xx is 503', async () => {
    const error = await failure(
      client({ fetch: respond(() => new Response('oops', { status: 502 })) }).list('users'),
    );
    expect(error.code).toBe('service_unavailable');
    expect(error.message).toContain('HTTP 502');
  });
});

/** A port that was free a moment ago: connecting to it is refused. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
