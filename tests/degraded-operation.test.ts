// Degraded operation (docs/architecture.md#degraded-operation, docs/api.md#health): the API keeps serving
// while Redis is down, answers 500 `database_unavailable` while PostgreSQL is down, and recovers from
// both without a restart. Both servers here are private ones started for this file; the shared services
// are never stopped.
import { createSql, migrate } from '@firebreak/db';
import {
  createTestRuntime,
  createTestUser,
  type TestRuntime,
  type TestUser,
} from '@firebreak/runtime/testing';
import { createServerApp } from '@firebreak/server';
import { bodyOf, PrivatePostgres, PrivateRedis, waitFor } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let redis: PrivateRedis;
let postgres: PrivatePostgres;
let runtime: TestRuntime;
let app: ReturnType<typeof createServerApp>;
let user: TestUser;

beforeAll(async () => {
  [redis, postgres] = await Promise.all([PrivateRedis.start(), PrivatePostgres.start()]);
  const setup = createSql(postgres.url(), { max: 1 });
  await migrate(setup);
  await setup.end();
  runtime = await createTestRuntime({ redisUrl: redis.url, databaseUrl: postgres.url() });
  app = createServerApp({ ctx: runtime.ctx, ready: runtime.ready, config: runtime.config });
  user = await createTestUser(runtime, 'member');
});
afterAll(async () => {
  await runtime?.cleanup();
  await Promise.all([redis?.destroy(), postgres?.destroy()]);
});

const me = () => app.request('/api/v1/auth/me', { headers: { authorization: `Bearer ${user.token}` } });
const ready = async () => {
  const res = await app.request('/ready');
  return { status: res.status, body: await bodyOf(res) };
};

describe('healthy', () => {
  it('reports ok for everything', async () => {
    await waitFor(async () => (await ready()).body.redis === 'ok', { what: 'redis ok' });
    expect(await ready()).toEqual({ status: 200, body: { status: 'ok', database: 'ok', redis: 'ok' } });
    expect((await app.request('/health')).status).toBe(200);
  });
});

describe('Redis down', () => {
  it('reports degraded, keeps the API serving, and recovers by itself', async () => {
    await redis.kill();
    const degraded = await waitFor(
      async () => {
        const r = await ready();
        return r.body.redis === 'error' ? r : undefined;
      },
      { what: 'redis error in /ready' },
    );
    expect(degraded).toEqual({ status: 200, body: { status: 'degraded', database: 'ok', redis: 'error' } });

    const res = await me();
    expect(res.status).toBe(200);
    const login = await app.request('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(login.status).toBe(200);

    await redis.start();
    await waitFor(async () => (await ready()).body.status === 'ok', {
      timeoutMs: 15_000,
      what: 'redis back',
    });
    expect(runtime.logs.messages().some((m) => m.startsWith('redis: connection refused (store down)'))).toBe(
      true,
    );
  });
});

const sendAlert = (externalId: string) =>
  app.request('/api/v1/webhooks/generic', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ alerts: [{ external_id: externalId, title: 'Disk full', severity: 'critical' }] }),
  });

describe('PostgreSQL down', () => {
  it('answers 500 database_unavailable on API routes, 503 on /ready, 200 on /health; then recovers', async () => {
    await postgres.stop();

    const res = await me();
    expect(res.status).toBe(500);
    expect((await bodyOf(res)).error).toMatchObject({ code: 'database_unavailable' });
    const login = await app.request('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(login.status).toBe(500);
    expect((await bodyOf(login)).error.code).toBe('database_unavailable');

    expect(await ready()).toEqual({ status: 503, body: { status: 'error', database: 'error', redis: 'ok' } });
    const health = await app.request('/health');
    expect(health.status).toBe(200);
    expect(await bodyOf(health)).toEqual({ status: 'ok' });
    // Webhooks too answer 500 (at once: the outage is known), never 503 overload; the sender retries.
    for (let i = 0; i < 3; i++) {
      const alert = await sendAlert('db-down-1');
      expect(alert.status).toBe(500);
      expect((await bodyOf(alert)).error.code).toBe('database_unavailable');
    }
    // However many requests failed, the log says it once.
    const databaseLines = () => runtime.logs.messages().filter((m) => m.startsWith('database: '));
    expect(databaseLines()).toHaveLength(1);
    expect(databaseLines()[0]).toMatch(
      /^database: (connection refused|server shutting down|connection lost) /,
    );

    await postgres.start();
    await waitFor(async () => (await me()).status === 200, { timeoutMs: 20_000, what: 'API recovery' });
    expect(await ready()).toEqual({ status: 200, body: { status: 'ok', database: 'ok', redis: 'ok' } });
    expect(runtime.logs.messages()).toContain('database: connection restored');
    // The retried alert is stored once.
    await waitFor(async () => (await sendAlert('db-down-1')).status === 200, { what: 'webhook recovery' });
    expect((await sendAlert('db-down-1')).status).toBe(200);
    const [row] = await runtime.sql<{ count: number }[]>`
      select count(*)::int as count from alerts where external_id = 'db-down-1'`;
    expect(row!.count).toBe(1);
  });
});
