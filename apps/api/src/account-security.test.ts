// What a client sees of the credential rules (docs/api.md#authentication, #metrics, #requests): the
// login backoff and the hash cap as HTTP answers, keys that die with their creator, the key list's
// creator, exact content types and the metrics token.
import { createTestUser, startTestApp, type TestApp, type TestUser } from '@firebreak/runtime/testing';
import { passwordHashSlots } from '@firebreak/services';
import { bodyOf } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

const METRICS_TOKEN = 'scrape-token-for-tests';
let t: TestApp<ReturnType<typeof createApp>, 'admin'>;
let admin: TestUser;

beforeAll(async () => {
  t = await startTestApp(createApp, {
    env: { METRICS_TOKEN, RATE_LIMIT_REQUESTS_PER_MINUTE: '10000' },
    users: { admin: 'admin' },
  });
  ({ admin } = t.users);
});
afterAll(() => t.runtime.cleanup());

const loginAs = (email: string, password: string) =>
  t.api('POST', '/api/v1/auth/login', { body: { email, password } });

describe('POST /api/v1/auth/login', () => {
  it('answers 429 rate_limited with Retry-After after five failures for the address', async () => {
    const user = await createTestUser(t.runtime, 'viewer');
    for (let i = 0; i < 5; i++) expect((await loginAs(user.email, 'wrong')).status).toBe(401);
    const refused = await loginAs(user.email, user.password);
    expect(refused.status).toBe(429);
    // Thirty seconds from the fifth failure: a second or two less by the time this request is refused
    // (each failure hashes a password, which a loaded machine takes its time over).
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(25);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    expect((await bodyOf(refused)).error.code).toBe('rate_limited');
    // Another account is not affected.
    expect((await loginAs(admin.email, 'wrong')).status).toBe(401);
  });

  it('answers 503 with Retry-After when every password-hash slot stays busy', async () => {
    const user = await createTestUser(t.runtime, 'viewer');
    for (let i = 0; i < passwordHashSlots.limit; i++) await passwordHashSlots.acquire();
    try {
      const busy = await loginAs(user.email, user.password);
      expect(busy.status).toBe(503);
      expect(busy.headers.get('retry-after')).toBe('1');
      expect((await bodyOf(busy)).error.code).toBe('service_unavailable');
    } finally {
      for (let i = 0; i < passwordHashSlots.limit; i++) passwordHashSlots.release();
    }
    expect((await loginAs(user.email, user.password)).status).toBe(200);
  });

  it('refuses a form content type that merely ends in +json', async () => {
    const user = await createTestUser(t.runtime, 'viewer');
    for (const type of ['application/x-www-form-urlencoded; x=+json', 'text/plain; a=application/json']) {
      const res = await t.api('POST', '/api/v1/auth/login', {
        headers: { 'content-type': type },
        body: { email: user.email, password: user.password },
      });
      expect(res.status, type).toBe(415);
    }
    const json = await t.api('POST', '/api/v1/auth/login', {
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: { email: user.email, password: user.password },
    });
    expect(json.status).toBe(200);
  });
});

describe('API keys', () => {
  it('list their creator and stop working when the creator is deleted', async () => {
    const creator = await createTestUser(t.runtime, 'admin', 'Kim Keymaker');
    const created = await t.api('POST', '/api/v1/api-keys', {
      token: creator.token,
      body: { name: 'deploy bot', role: 'admin' },
    });
    const key = await bodyOf(created);
    expect(key.created_by).toEqual({
      id: creator.id,
      name: 'Kim Keymaker',
      email: creator.email,
      role: 'admin',
      active: true,
    });
    const listed = (await bodyOf(await t.api('GET', '/api/v1/api-keys', { token: admin.token }))).api_keys;
    expect(listed.find((k: { id: string }) => k.id === key.id).created_by.id).toBe(creator.id);

    expect((await t.api('GET', '/api/v1/auth/me', { token: key.token })).status).toBe(200);
    const deleted = await t.api('DELETE', `/api/v1/users/${creator.id}`, { token: admin.token });
    expect(deleted.status).toBe(204);
    expect((await t.api('GET', '/api/v1/auth/me', { token: key.token })).status).toBe(401);
    const after = (await bodyOf(await t.api('GET', '/api/v1/api-keys', { token: admin.token }))).api_keys;
    expect(after.map((k: { id: string }) => k.id)).not.toContain(key.id);
  });

  it('act with the creator’s current role when it is lower than the key’s', async () => {
    const creator = await createTestUser(t.runtime, 'admin');
    const key = await bodyOf(
      await t.api('POST', '/api/v1/api-keys', { token: creator.token, body: { name: 'k', role: 'admin' } }),
    );
    await t.api('PATCH', `/api/v1/users/${creator.id}`, { token: admin.token, body: { role: 'member' } });
    const me = await bodyOf(await t.api('GET', '/api/v1/auth/me', { token: key.token }));
    expect(me.role).toBe('member');
    expect((await t.api('GET', '/api/v1/api-keys', { token: key.token })).status).toBe(403);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  it('needs the token as a bearer token', async () => {
    const without = await t.api('GET', '/metrics');
    expect(without.status).toBe(401);
    expect((await bodyOf(without)).error.code).toBe('unauthorized');
    expect((await t.api('GET', '/metrics', { token: 'wrong' })).status).toBe(401);
    expect((await t.api('GET', '/metrics', { token: admin.token })).status).toBe(401);
    const scraped = await t.api('GET', '/metrics', { token: METRICS_TOKEN });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('firebreak_http_request_duration_seconds');
  });
});
