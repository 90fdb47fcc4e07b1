import { startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import { bodyOf, type TestClient, waitFor } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

// While the failure log says the database is down, the API answers without asking it
// (docs/decisions.md#a-database-outage-answers-at-once). The database here is up, so an answer other
// than `database_unavailable` would show the request went to it.
let runtime: TestRuntime;
let api: TestClient;
let viewer: TestUser;
beforeAll(async () => {
  ({
    runtime,
    api,
    users: { viewer },
  } = await startTestApp(createApp, { users: { viewer: 'viewer' } }));
});
afterAll(() => runtime.cleanup());

const markDatabaseDown = () =>
  runtime.ctx.failures.failed('database', {
    reason: 'connection refused',
    line: 'database: connection refused',
  });

describe('the API while the database is known to be down', () => {
  it('answers 500 database_unavailable at once, before the rate limit or the token lookup', async () => {
    markDatabaseDown();
    for (const path of ['/api/v1/alerts', '/api/v1/incidents', '/api/v1/auth/me']) {
      const res = await api('GET', path, { token: viewer.token });
      expect(res.status, path).toBe(500);
      const { error } = await bodyOf(res);
      expect(error).toMatchObject({
        code: 'database_unavailable',
        message: expect.stringMatching(/database/),
      });
      expect(error.request_id).toBeTruthy();
    }
    const login = await api('POST', '/api/v1/auth/login', {
      body: { email: 'a@example.test', password: 'x' },
    });
    expect((await bodyOf(login)).error.code).toBe('database_unavailable');
  });

  it('keeps serving what needs no database', async () => {
    markDatabaseDown();
    expect((await api('GET', '/api/v1/openapi.json')).status).toBe(200);
    expect((await api('GET', '/health')).status).toBe(200);
  });

  it('answers normally again once the probe finds the database, with no restart', async () => {
    markDatabaseDown();
    await waitFor(async () => (await api('GET', '/api/v1/alerts', { token: viewer.token })).status === 200, {
      timeoutMs: 5000,
      intervalMs: 50,
      what: 'the probe to find the database',
    });
    expect(runtime.ctx.failures.failing('database')).toBeUndefined();
  });
});
