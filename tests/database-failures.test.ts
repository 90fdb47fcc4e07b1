// Each database failure the runbooks list (docs/runbooks/README.md), provoked against a private server,
// shows as `/ready` 503, 500 `database_unavailable` on the API, and one log line that names it in the
// runbooks' words with the server's message kept — one line however many requests fail, counted in
// /metrics. docs/runbooks/ quote these lines and these set-ups.

import { resolve } from 'node:path';
import { loadConfig } from '@firebreak/config';
import { createRuntime, prepareDatabase } from '@firebreak/runtime';
import { failureCount } from '@firebreak/runtime/testing';
import { captureLogs, getFreePort, PrivatePostgres, startProcess, testRedisUrl } from '@firebreak/testing';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FailingApi, startFailingApi } from './support/failing-api';

const repoRoot = resolve(import.meta.dirname, '..');
const apis: FailingApi[] = [];
const servers: PrivatePostgres[] = [];

afterAll(async () => {
  for (const api of apis) await api.close();
  for (const server of servers) await server.destroy();
});

async function api(databaseUrl: string, env: Record<string, string> = {}): Promise<FailingApi> {
  const started = await startFailingApi({ DATABASE_URL: databaseUrl, REDIS_URL: testRedisUrl, ...env });
  apis.push(started);
  return started;
}

/** What an operator sees while the database is failing for `reason`; answers the log line. */
async function expectDiagnosed(failing: FailingApi, reason: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 3; i++) {
    const ready = await failing.ready();
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'error', database: 'error', redis: 'ok' });
    const answer = await failing.listIncidents();
    expect(answer.status).toBe(500);
    expect(answer.body.error?.code).toBe('database_unavailable');
  }
  const lines = failing.linesStartingWith('database: ');
  expect(lines).toHaveLength(1); // six failed requests, one line
  expect(lines[0]).toMatchObject({ level: 'error', component: 'database', reason });
  expect(await failureCount(failing.runtime.ctx.metrics, 'database', reason)).toBeGreaterThanOrEqual(6);
  return lines[0]!;
}

describe('database failures, each named in the log once', () => {
  it('connection refused: nothing listens at the address', async () => {
    const port = await getFreePort();
    const line = await expectDiagnosed(
      await api(`postgres://postgres@127.0.0.1:${port}/firebreak`),
      'connection refused',
    );
    expect(line.msg).toBe(
      `database: connection refused (database down or unreachable): connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });

  it('password authentication failed: wrong credentials in DATABASE_URL', async () => {
    const server = await PrivatePostgres.start();
    servers.push(server);
    const wrong = server.url().replace(`:${server.password}@`, ':not-the-password@');
    const line = await expectDiagnosed(await api(wrong), 'password authentication failed');
    expect(line.msg).toBe(
      'database: password authentication failed (wrong DATABASE_URL credentials): ' +
        'password authentication failed for user "postgres"',
    );
    // The fix the runbook gives: the right password.
    const fixed = await api(server.url());
    expect((await fixed.ready()).body).toMatchObject({ status: 'ok', database: 'ok' });
  });

  it('SSL connection required: the server requires TLS and DATABASE_URL says sslmode=disable', async () => {
    const server = await PrivatePostgres.start({ requireTls: true });
    servers.push(server);
    const line = await expectDiagnosed(
      await api(`${server.url()}?sslmode=disable`),
      'SSL connection required',
    );
    expect(line.msg).toMatch(
      /^database: SSL connection required \(server requires TLS while DATABASE_URL has sslmode=disable\): .*(no encryption|SSL off)/,
    );
    const fixed = await api(`${server.url()}?sslmode=require`);
    expect((await fixed.ready()).body).toMatchObject({ status: 'ok', database: 'ok' });
  });
});

describe('a server with a small max_connections', () => {
  let server: PrivatePostgres;
  beforeAll(async () => {
    // No slots held back for superusers: the test's role is one, and it must feel the limit.
    server = await PrivatePostgres.start({
      postgresFlags: ['-c', 'max_connections=20', '-c', 'superuser_reserved_connections=0'],
    });
    servers.push(server);
  });

  it('too many connections: logged once while every slot is taken, recovery logged when one frees', async () => {
    const hog = postgres(server.url(), { max: 20, onnotice: () => {} });
    const held = await Promise.all(Array.from({ length: 20 }, () => hog.reserve()));
    try {
      const line = await expectDiagnosed(await api(server.url()), 'too many connections');
      expect(line.msg).toMatch(
        /^database: too many connections \(pool or server connection limit reached: DB_MAX_OPEN_CONNS × processes against max_connections\): .*(too many clients|connection slots)/,
      );
    } finally {
      for (const connection of held) connection.release();
      await hog.end();
    }
    // Nobody has to call: the failure log probes the database until it answers.
    const failing = apis.at(-1)!;
    await expect
      .poll(() => failing.linesStartingWith('database: connection restored').length, { timeout: 15_000 })
      .toBe(1);
    expect((await failing.ready()).status).toBe(200);
  });

  it('start-up refuses DB_MAX_OPEN_CONNS above max_connections and says what to do', async () => {
    const logs = captureLogs();
    const config = loadConfig({ DATABASE_URL: server.url(), DB_MAX_OPEN_CONNS: '25' });
    const runtime = createRuntime({ name: 'api', config, logger: logs.logger });
    try {
      await expect(prepareDatabase(runtime, () => {})).rejects.toThrow(
        "DB_MAX_OPEN_CONNS=25 is above the database's max_connections=20; " +
          'lower DB_MAX_OPEN_CONNS to at most 4 (20 %) or raise max_connections on the server',
      );
    } finally {
      await runtime.close();
    }
  });

  it('an app started with such a pool exits 1 with that message', async () => {
    const app = startProcess(resolve(repoRoot, 'node_modules/.bin/tsx'), ['apps/api/src/main.ts'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: String(await getFreePort()),
        DATABASE_URL: server.url(),
        REDIS_URL: testRedisUrl,
        DB_MAX_OPEN_CONNS: '30',
      },
    });
    expect(await app.exited()).toBe(1);
    expect(app.output()).toContain(
      "start-up failed: DB_MAX_OPEN_CONNS=30 is above the database's max_connections=20",
    );
  });

  it('warns when the pool is above 20 % of max_connections, and starts', async () => {
    const logs = captureLogs();
    const config = loadConfig({ DATABASE_URL: server.url(), DB_MAX_OPEN_CONNS: '5' });
    const runtime = createRuntime({ name: 'api', config, logger: logs.logger });
    try {
      const preparation = await prepareDatabase(runtime, () => {});
      await preparation.done;
      const warning = logs.lines.find((l) => String(l.msg).startsWith('DB_MAX_OPEN_CONNS=5 is above 20 %'));
      expect(warning).toMatchObject({ level: 'warn', db_max_open_conns: 5, max_connections: 20 });
    } finally {
      await runtime.close();
    }
  });
});
