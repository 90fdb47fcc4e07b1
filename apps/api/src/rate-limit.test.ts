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

  it('never limits acknowledge links and Twilio callbacks, which carry their own credential', async () => {
    // Spend this address's budget (the test before may have done so already).
    let status = 0;
    for (let i = 0; i < 7 && status !== 429; i++) status = (await api('GET', '/api/v1/incidents')).status;
    expect(status).toBe(429);
    // Answered on their own terms: a link that is not genuine is 404, an unsigned callback 403.
    for (let i = 0; i < 3; i++) {
      expect((await api('GET', '/api/v1/page/not-a-token')).status).toBe(404);
      expect((await api('POST', '/api/v1/page/not-a-token?via=push')).status).toBe(404);
      const twilio = await api('POST', '/api/v1/paging/twilio/sms', {
        body: 'From=%2B14155550100&Body=ACK+1234',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(twilio.status).toBe(403);
    }
    // The rest of the API is still limited for this address.
    expect((await api('GET', '/api/v1/incidents')).status).toBe(429);
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
