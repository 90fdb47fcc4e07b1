// The worker's /metrics follows METRICS_TOKEN like the API's (docs/api.md#metrics).
import { startTestApp, type TestApp } from '@firebreak/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

let t: TestApp<ReturnType<typeof createApp>, never>;
beforeAll(async () => {
  t = await startTestApp((deps) => createApp({ ...deps, metricsToken: deps.config.metricsToken }), {
    env: { METRICS_TOKEN: 'worker-scrape-token' },
  });
});
afterAll(() => t.runtime.cleanup());

describe('GET /metrics on the worker', () => {
  it('answers only with the bearer token', async () => {
    expect((await t.api('GET', '/metrics')).status).toBe(401);
    expect((await t.api('GET', '/metrics', { token: 'worker-scrape-tokeN' })).status).toBe(401);
    expect((await t.api('GET', '/metrics', { token: 'worker-scrape-token' })).status).toBe(200);
  });
});
