import { AppError } from '@firebreak/schema';
import { type FakeOpsgenieApi, startFakeOpsgenieApi } from '@firebreak/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpsgenieClient, type OpsgenieClientOptions, throttleSeconds } from './opsgenie-client';
import { readOpsgenie } from './read-opsgenie';

const KEY = 'opsgenie-test-key';
const users = Array.from({ length: 5 }, (_, i) => ({ id: `U${i}`, username: `u${i}@x.dev` }));
let fake: FakeOpsgenieApi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const client = (options: Partial<OpsgenieClientOptions> = {}) =>
  createOpsgenieClient({ url: fake?.url ?? 'http://127.0.0.1:9', apiKey: KEY, ...options });

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('paging', () => {
  it('reads offset/limit pages while paging.next is given, with the GenieKey', async () => {
    fake = await startFakeOpsgenieApi({ data: { users }, maxPageSize: 2 });
    expect(await client().list('users')).toEqual(users);
    const requests = fake.requestsTo('users');
    expect(requests.map((r) => r.query.offset)).toEqual(['0', '2', '4']);
    expect(requests.every((r) => r.authorization === `GenieKey ${KEY}` && r.query.limit === '100')).toBe(
      true,
    );
  });

  it('refuses a next link that does not move forward instead of looping', async () => {
    const page = { data: [{}], paging: { next: 'http://x/v2/users?offset=0' } };
    const error = await failure(
      client({ fetch: (async () => Response.json(page)) as typeof fetch }).list('users'),
    );
    expect(error.message).toContain('links offset 0 to offset 0');
  });
});

describe('throttling', () => {
  it('waits X-RateLimit-Period-In-Sec after a 429 and retries; the answer is complete', async () => {
    fake = await startFakeOpsgenieApi({ data: { users }, maxPageSize: 2 });
    fake.throttle({ resource: 'users', periodSeconds: 1 });
    const waits: number[] = [];
    const progress: unknown[] = [];
    const items = await client({
      sleep: async (ms) => void waits.push(ms),
      onProgress: (p) => progress.push(p),
    }).list('users');
    expect(items).toEqual(users);
    expect(waits).toEqual([1000]);
    expect(fake.requestsTo('users').map((r) => r.status)).toEqual([429, 200, 200, 200]);
    expect(progress[0]).toEqual({ kind: 'throttled', resource: 'users', waitSeconds: 1 });
  });

  it('gives up after a bounded number of retries with 503 and the wait', async () => {
    fake = await startFakeOpsgenieApi({ data: { users } });
    fake.throttle({ resource: 'users', times: 10, periodSeconds: 1 });
    const error = await failure(client({ maxThrottleRetries: 2, sleep: async () => {} }).list('users'));
    expect(error.code).toBe('service_unavailable');
    expect(error.details).toEqual({ retry_after_seconds: 1 });
    expect(fake.requestsTo('users')).toHaveLength(3);
  });

  it('reads the wait from X-RateLimit-Period-In-Sec, else Retry-After, else 1 s', () => {
    expect(throttleSeconds(new Headers({ 'x-ratelimit-period-in-sec': '60', 'retry-after': '3' }))).toBe(60);
    expect(throttleSeconds(new Headers({ 'retry-after': '3' }))).toBe(3);
    expect(throttleSeconds(new Headers())).toBe(1);
  });
});

describe('errors say what to fix', () => {
  it('401 (an unknown key) is 400 at api_key, the key not in it', async () => {
    fake = await startFakeOpsgenieApi({ data: { users } });
    const error = await failure(client({ apiKey: 'wrong-key' }).list('users'));
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual([{ path: 'api_key', message: expect.stringContaining('HTTP 401') }]);
    expect(JSON.stringify(error)).not.toContain('wrong-key');
  });

  it('403 (a key without configuration access) is 400 at api_key naming the access it needs', async () => {
    fake = await startFakeOpsgenieApi({ data: { users } });
    const error = await failure(client({ apiKey: fake.keyWithoutConfigAccess }).list('users'));
    expect(error.details).toEqual([
      { path: 'api_key', message: expect.stringContaining('lacks configuration access') },
    ]);
  });

  it('a host that is not the Opsgenie API (404, not JSON) is 400 at url; 5xx is 503', async () => {
    fake = await startFakeOpsgenieApi({ data: { users } });
    const missing = await failure(client().list('nothing-here'));
    expect(missing.details).toEqual([{ path: 'url', message: expect.stringContaining('answered HTTP 404') }]);
    const html = (async () =>
      new Response('<html></html>', { headers: { 'content-type': 'text/html' } })) as typeof fetch;
    expect((await failure(client({ fetch: html }).list('users'))).message).toContain('not JSON (text/html)');
    const down = (async () => new Response('oops', { status: 502 })) as typeof fetch;
    expect((await failure(client({ fetch: down }).list('users'))).code).toBe('service_unavailable');
    expect(() => client({ url: 'not a url' })).toThrow(
      expect.objectContaining({ code: 'validation_failed' }),
    );
  });
});

describe('reading an account', () => {
  it('reads team details for members, rotations expanded, overrides per schedule, keys of keyed types only', async () => {
    fake = await startFakeOpsgenieApi({
      data: {
        users,
        teams: [{ id: 't1', name: 'Ops', members: [{ user: { id: 'U0' }, role: 'admin' }] }],
        schedules: [
          { id: 's1', name: 'S', rotations: [{ type: 'daily', startDate: '2026-01-01T00:00:00Z' }] },
        ],
        overrides: { s1: [{ alias: 'o1' }] },
        integrations: [
          { id: 'i1', name: 'App', type: 'API', apiKey: 'k1' },
          { id: 'i2', name: 'Mail', type: 'Email', apiKey: 'k2' },
        ],
      },
    });
    const source = await readOpsgenie(client());
    expect(source.teams[0]!.members).toHaveLength(1);
    expect(source.schedules[0]!.rotations).toHaveLength(1);
    expect(source.overrides).toEqual({ s1: [{ alias: 'o1' }] });
    expect(source.integrations.map((i) => i.apiKey ?? null)).toEqual(['k1', null]);
  });

  it('an item of the wrong shape stops the import with where it is', async () => {
    fake = await startFakeOpsgenieApi({ data: { users: [{ id: 'U1', username: 7 }] } });
    const error = await failure(readOpsgenie(client()));
    expect(error.message).toContain('data[0].username');
  });
});
