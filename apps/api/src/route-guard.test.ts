import { startTestApp, type TestRuntime } from '@firebreak/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

// Every /api/v1 path except these needs a token (docs/api.md#authentication).
const publicRoutes = new Set([
  'POST /api/v1/auth/login',
  'POST /api/v1/auth/setup',
  // Single sign-on: how someone without a session gets one (docs/sso.md).
  'GET /api/v1/auth/config',
  'GET /api/v1/auth/oidc/login',
  'GET /api/v1/auth/oidc/callback',
  'GET /api/v1/openapi.json',
  'GET /api/v1/docs',
  'GET /api/v1/docs/scalar.js',
  // A calendar feed: calendar applications cannot log in; the token in the URL is the credential.
  'GET /api/v1/calendar/:feed',
  // The public status page as JSON: it shows only what was published for anyone (docs/status-page.md).
  'GET /api/v1/status',
  // A page's acknowledge link: whoever was paged may not be logged in; the signed token is the
  // credential, and GET only shows the page (docs/paging.md#acknowledge-links).
  'GET /api/v1/page/:token',
  'POST /api/v1/page/:token',
  // Twilio's callbacks: Twilio holds no token; X-Twilio-Signature is checked instead, 403 without it
  // (docs/paging-twilio-push.md#twilio-webhooks).
  'POST /api/v1/paging/twilio/voice/:token',
  'POST /api/v1/paging/twilio/voice/:token/gather',
  'POST /api/v1/paging/twilio/sms',
]);

let runtime: TestRuntime;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  ({ runtime, app } = await startTestApp(createApp));
});
afterAll(() => runtime.cleanup());

describe('route guard', () => {
  it('answers 401 on every non-public /api/v1 route when no token is sent', async () => {
    const routes = app.routes.filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/v1/'));
    const guarded = routes.filter((r) => !publicRoutes.has(`${r.method} ${r.path}`));
    expect(guarded.length).toBeGreaterThan(3);
    for (const route of guarded) {
      const path = route.path.replace(/:[a-z_]+/g, '00000000-0000-4000-8000-000000000000');
      const res = await app.request(path, {
        method: route.method,
        headers: { 'content-type': 'application/json' },
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: '{}' }),
      });
      expect(`${route.method} ${route.path} -> ${res.status}`).toBe(`${route.method} ${route.path} -> 401`);
    }
  });
});
