// Each key-value store failure the runbooks list (docs/runbooks/README.md), provoked against a private
// redis-server, shows as `/ready` 200 `degraded` (the API keeps working) and one log line naming it,
// however often the client retries; counted in /metrics. docs/runbooks/ quote these.
import { failureCount } from '@firebreak/runtime/testing';
import { createTestDatabase, getFreePort, PrivateRedis, type TestDatabase } from '@firebreak/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FailingApi, startFailingApi } from './support/failing-api';

let db: TestDatabase;
const apis: FailingApi[] = [];
const servers: PrivateRedis[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  for (const api of apis) await api.close();
  for (const server of servers) await server.destroy();
  await db.drop();
});

async function api(redisUrl: string, env: Record<string, string> = {}): Promise<FailingApi> {
  const started = await startFailingApi(
    { DATABASE_URL: db.url, REDIS_URL: redisUrl, ...env },
    { storeReachable: false },
  );
  apis.push(started);
  return started;
}

/** The store failing for `reason`: degraded, not down; one line after several retries. */
async function expectDiagnosed(failing: FailingApi, reason: string): Promise<Record<string, unknown>> {
  await expect.poll(() => failing.linesStartingWith('redis: ').length, { timeout: 10_000 }).toBe(1);
  const ready = await failing.ready();
  expect(ready.status).toBe(200);
  expect(ready.body).toEqual({ status: 'degraded', database: 'ok', redis: 'error' });
  await expect
    .poll(() => failureCount(failing.runtime.ctx.metrics, 'redis', reason), { timeout: 10_000 })
    .toBeGreaterThanOrEqual(1);
  // The client retries (every 2 s at most); the log does not repeat itself meanwhile.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  const lines = failing.linesStartingWith('redis: ');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ level: 'error', component: 'redis', reason });
  return lines[0]!;
}

describe('store failures, each named in the log once', () => {
  it('connection refused: the store is down', async () => {
    const port = await getFreePort();
    const line = await expectDiagnosed(await api(`redis://127.0.0.1:${port}`), 'connection refused');
    expect(line.msg).toBe(`redis: connection refused (store down): connect ECONNREFUSED 127.0.0.1:${port}`);
  });

  it('NOAUTH: the store has a password and KV_PASSWORD is not set', async () => {
    const server = await PrivateRedis.start({ password: 'store-password' });
    servers.push(server);
    const line = await expectDiagnosed(await api(server.url), 'NOAUTH');
    expect(line.msg).toMatch(
      /^redis: NOAUTH \(the store requires a password and KV_PASSWORD is not set\): .*NOAUTH Authentication required/,
    );
    // The fix the runbook gives, and its check.
    const fixed = await api(server.url, { KV_PASSWORD: 'store-password' });
    await expect
      .poll(async () => (await fixed.ready()).body, { timeout: 10_000 })
      .toMatchObject({ status: 'ok' });
  });

  it('max number of clients reached: the store has no connection to spare', async () => {
    const server = await PrivateRedis.start();
    servers.push(server);
    // This connection takes the only slot (CONFIG SET, so the limit applies from now on).
    const hog = new Redis(server.url, { maxRetriesPerRequest: 0 });
    try {
      await hog.config('SET', 'maxclients', '1');
      const line = await expectDiagnosed(await api(server.url), 'max number of clients reached');
      expect(line.msg).toMatch(
        /^redis: max number of clients reached \(the store's maxclients limit\): .*max number of clients reached/,
      );
    } finally {
      hog.disconnect();
    }
    // One connection frees: the client gets in by itself and says so.
    const failing = apis.at(-1)!;
    await expect
      .poll(() => failing.linesStartingWith('redis: connection restored').length, { timeout: 10_000 })
      .toBe(1);
    expect((await failing.ready()).body).toMatchObject({ status: 'ok', redis: 'ok' });
  });
});
