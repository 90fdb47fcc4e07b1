import { AppError } from '@firebreak/schema';
import { type FakePagerDutyApi, startFakePagerDutyApi } from '@firebreak/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createPagerDutyClient,
  type PagerDutyClientOptions,
  rateLimitResetSeconds,
} from './pagerduty-client';

const TOKEN = 'pagerduty-test-token';
const users = Array.from({ length: 7 }, (_, i) => ({ id: `P${i}`, email: `u${i}@x.dev` }));
let fake: FakePagerDutyApi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const client = (options: Partial<PagerDutyClientOptions> = {}) =>
  createPagerDutyClient({ url: fake?.url ?? 'http://127.0.0.1:9', token: TOKEN, ...options });

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('paging', () => {
  it('reads offset/limit pages while `more`, advancing by what came back, with the v2 headers', async () => {
    fake = await startFakePagerDutyApi({ data: { users } });
    // The server picks a smaller limit than asked for the first page, once.
    fake.shortPageOnce('users', 2);
    expect(await client({ pageSize: 3 }).list('/users', 'users')).toEqual(users);
    const requests = fake.requestsTo('users');
    expect(requests.map((r) => [r.query.get('offset'), r.query.get('limit')])).toEqual([
      ['0', '3'],
      ['2', '3'],
      ['5', '3'],
    ]);
    expect(
      requests.every(
        (r) =>
          r.authorization === `Token token=${TOKEN}` &&
          r.accept === 'application/vnd.pagerduty+json;version=2',
      ),
    ).toBe(true);
  });

  it('passes repeated query parameters (include[]) and reads a single object, undefined on 404', async () => {
    fake = await startFakePagerDutyApi({
      data: { schedules: [{ id: 'S1', name: 'P', schedule_layers: [{ name: 'L' }] }] },
    });
    const [listed] = (await client().list('/schedules', 'schedules', {
      'include[]': 'schedule_layers',
    })) as Array<{
      schedule_layers?: unknown[];
    }>;
    expect(listed?.schedule_layers).toHaveLength(1);
    const [bare] = (await client().list('/schedules', 'schedules')) as Array<Record<string, unknown>>;
    expect(bare).not.toHaveProperty('schedule_layers');
    expect(await client().get('/schedules/S1', 'schedule')).toMatchObject({ id: 'S1' });
    expect(await client().get('/users/PGONE', 'user')).toBeUndefined();
  });

  it('refuses a page that promises more but sends nothing, instead of looping', async () => {
    const stuck: typeof fetch = async () => Response.json({ users: [], more: true, offset: 0, limit: 100 });
    const error = await failure(client({ fetch: stuck }).list('/users', 'users'));
    expect(error.message).toContain('says more items follow offset 0 but sent none');
  });
});

describe('throttling', () => {
  it('waits until ratelimit-reset after a 429 and retries, once or more', async () => {
    fake = await startFakePagerDutyApi({ data: { users } });
    fake.throttle({ resource: 'users', times: 2, reset: 4 });
    const waits: number[] = [];
    expect(await client({ sleep: async (ms) => void waits.push(ms) }).list('/users', 'users')).toEqual(users);
    expect(waits).toEqual([4000, 4000]);
    expect(fake.requestsTo('users').map((r) => r.status)).toEqual([429, 429, 200]);
  });

  it('gives up with 503 after a bounded number of retries', async () => {
    fake = await startFakePagerDutyApi({ data: { users } });
    fake.throttle({ resource: 'users', times: 10, reset: 1 });
    const error = await failure(
      client({ maxThrottleRetries: 2, sleep: async () => {} }).list('/users', 'users'),
    );
    expect(error.code).toBe('service_unavailable');
    expect(error.details).toEqual({ retry_after_seconds: 1 });
  });

  it('does not wait longer than the limit: 503 at once', async () => {
    fake = await startFakePagerDutyApi({ data: { users } });
    fake.throttle({ resource: 'users', reset: 600 });
    const waits: number[] = [];
    const long = await failure(client({ sleep: async (ms) => void waits.push(ms) }).get('/users/P1', 'user'));
    expect(long.message).toContain('it asks to wait 600 s');
    expect(waits).toEqual([]);
  });

  it('reads the wait from ratelimit-reset, else retry-after, else 5 s', () => {
    expect(rateLimitResetSeconds(new Headers({ 'ratelimit-reset': '9', 'retry-after': '7' }))).toBe(9);
    expect(rateLimitResetSeconds(new Headers({ 'retry-after': '7' }))).toBe(7);
    expect(rateLimitResetSeconds(new Headers())).toBe(5);
  });
});

describe('errors say what to fix', () => {
  it('a refused token (401) is 400 at api_token, with PagerDuty’s message and without the token', async () => {
    fake = await startFakePagerDutyApi({ data: { users } });
    const error = await failure(client({ token: 'wrong-token' }).list('/users', 'users'));
    expect(error.code).toBe('validation_failed');
    expect(error.message).toContain('PagerDuty refused the API token (HTTP 401: Invalid Credentials)');
    expect(error.details).toEqual([{ path: 'api_token', message: error.message }]);
    expect(JSON.stringify(error)).not.toContain('wrong-token');
  });

  it('a token that may not read a resource (403) is 400 at api_token naming it', async () => {
    fake = await startFakePagerDutyApi({ data: { users } });
    fake.forbid('services');
    const error = await failure(client().list('/services', 'services'));
    expect(error.message).toMatch(
      /^PagerDuty denied the API token access to \/services \(HTTP 403: Access Denied\)/,
    );
    expect((error.details as Array<{ path: string }>)[0]!.path).toBe('api_token');
  });

  it('a URL that is not the REST API is 400 at url', async () => {
    fake = await startFakePagerDutyApi({ data: { users } });
    const notFound = await failure(client().list('/nothing', 'nothing'));
    expect(notFound.details).toEqual([
      { path: 'url', message: expect.stringContaining('answered HTTP 404') },
    ]);
    const html: typeof fetch = async () =>
      new Response('<html/>', { headers: { 'content-type': 'text/html' } });
    expect((await failure(client({ fetch: html }).list('/users', 'users'))).message).toContain(
      'not JSON (text/html)',
    );
    expect(() => client({ url: 'not a url' })).toThrow(
      expect.objectContaining({ code: 'validation_failed' }),
    );
  });

  it('a 5xx or no answer in time is 503', async () => {
    const broken: typeof fetch = async () => new Response('oops', { status: 502 });
    expect((await failure(client({ fetch: broken }).list('/users', 'users'))).code).toBe(
      'service_unavailable',
    );
    const hang: typeof fetch = (_url, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
      );
    const error = await failure(client({ fetch: hang, timeoutMs: 50 }).list('/users', 'users'));
    expect(error.message).toBe('PagerDuty did not answer /users within 0.05 s.');
  });
});
