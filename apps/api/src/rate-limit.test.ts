import { createTestUser, startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import { bodyOf, PrivateRedis, type TestClient, waitFor } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

let redis: PrivateRedis;
let runtime: TestRuntime;
let api: TestClient;
let user: TestUser;
let other: TestUser;

beforeAll(async () => {
  redis = await PrivateRedis.start();
  ({
    runtime,
    api,
    users: { user, other },
  } = await startTestApp(createApp, {
    redisUrl: redis.url,
    env: { RATE_LIMIT_REQUESTS_PER_MINUTE: '5' },
    users: { user: 'viewer', other: 'viewer' },
  }));
  await waitFor(() => runtime.redis.status === 'ready', { what: 'redis' });
});
afterAll(async () => {
  await runtime.cleanup();
  await redis.destroy();
});

describe('API rate limit', () => {
  it('allows RATE_LIMIT_REQUESTS_PER_MINUTE per token, then answers 429 with Retry-After', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await api('GET', '/api/v1/incidents', { token: user.token });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('5');
      expect(res.headers.get('ratelimit-remaining')).toBe(String(4 - i));
    }
    const limited = await api('GET', '/api/v1/incidents', { token: user.token });
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await bodyOf(limited)).error).toMatchObject({
      code: 'rate_limited',
      details: { retry_after_seconds: retryAfter },
    });
    // Another client has its own budget; health, readiness and metrics are never limited.
    expect((await api('GET', '/api/v1/incidents', { token: other.token })).status).toBe(200);
    for (const path of ['/health', '/ready', '/metrics']) expect((await api('GET', path)).status).toBe(200);
  });

  it('does not give made-up tokens fresh budgets, and limits login by address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await api('GET', '/api/v1/incidents', { token: `fbk_made-up-${i}` })).status);
    }
    // Each made-up token is refused (401) but all of them draw on the one address budget.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const login = await api('POST', '/api/v1/auth/login', {
      token: user.token, // a valid token does not lift the address budget for proving credentials
      body: { email: 'nobody@example.test', password: 'guess' },
    });
    expect(login.status).toBe(429);
  });

  it('keeps limiting in this process while Redis is down', async () => {
    await redis.kill();
    await waitFor(() => runtime.redis.status !== 'ready', { what: 'redis to drop' });
    const fresh = await createTestUser(runtime, 'viewer');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await api('GET', '/api/v1/incidents', { token: fresh.token })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    await redis.start();
  });
});
