// The web UI's serving (SPA fallback, caching, the not-built message) and the CSRF guard on the
// cookie-authenticated API (docs/decisions.md, "Web UI").
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import { bodyOf } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

let runtime: TestRuntime;
let webRoot: string;
let app: ReturnType<typeof createApp>;
let member: TestUser;

beforeAll(async () => {
  webRoot = mkdtempSync(join(tmpdir(), 'firebreak-web-'));
  mkdirSync(join(webRoot, 'assets'));
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(webRoot, 'assets', 'index-abc123.js'), 'console.log(1)');
  ({
    runtime,
    app,
    users: { member },
  } = await startTestApp((deps) => createApp({ ...deps, webRoot }), {
    env: { PUBLIC_URL: 'https://firebreak.example.com' },
    users: { member: 'member' },
  }));
});
afterAll(async () => {
  rmSync(webRoot, { recursive: true, force: true });
  await runtime?.cleanup();
});

describe('serving the web UI', () => {
  it('answers index.html, not cached, for the app and for its own routes', async () => {
    for (const path of ['/', '/incidents/42', '/settings']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it('serves hashed assets for a year, and a missing one as 404 rather than HTML', async () => {
    const asset = await app.request('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await app.request('/assets/index-old999.js')).status).toBe(404);
  });

  it('leaves service paths to the service: unknown API paths stay JSON 404s', async () => {
    const res = await app.request('/api/v1/no-such-thing');
    expect(res.status).toBe(404);
    expect((await bodyOf(res)).error.code).toBe('not_found');
    expect((await app.request('/health')).headers.get('content-type')).toContain('application/json');
  });

  it('says how to build the UI when there is no build', async () => {
    const bare = createApp({
      ctx: runtime.ctx,
      ready: runtime.ready,
      config: runtime.config,
      webRoot: join(webRoot, 'missing'),
    });
    const res = await bare.request('/');
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('pnpm --filter @firebreak/web build');
  });
});

describe('cross-site request guard', () => {
  const cookie = () => ({ cookie: `firebreak_session=${member.token}` });
  const logoutLike = (headers: Record<string, string>) =>
    // A bodyless write a cross-site form could send: asking for a post-mortem draft.
    app.request('/api/v1/incidents/1/summary', { method: 'POST', headers });

  it('refuses a cookie-authenticated form post from another origin', async () => {
    const res = await logoutLike({
      ...cookie(),
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'https://evil.example.net',
    });
    expect(res.status).toBe(403);
    expect((await bodyOf(res)).error.code).toBe('forbidden');
  });

  it('lets the same request through from the UI origin (PUBLIC_URL) and from API clients', async () => {
    const fromUi = await logoutLike({
      ...cookie(),
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'https://firebreak.example.com',
    });
    const fromScript = await logoutLike({ authorization: `Bearer ${member.token}` });
    // Past the guard: the route itself answers (no AI provider configured here).
    expect((await bodyOf(fromUi)).error.code).toBe('ai_not_configured');
    expect((await bodyOf(fromScript)).error.code).toBe('ai_not_configured');
  });

  it('leaves JSON writes alone: no form can send them', async () => {
    const res = await app.request('/api/v1/incidents', {
      method: 'POST',
      headers: { ...cookie(), 'content-type': 'application/json', origin: 'https://evil.example.net' },
      body: JSON.stringify({ title: 'From a script on the same machine', severity: 'low' }),
    });
    expect(res.status).toBe(201);
  });
});
