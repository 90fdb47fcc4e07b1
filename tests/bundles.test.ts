// `pnpm build` produces plain-node bundles (apps/*/dist/main.js) for deployments without TypeScript
// tooling. Build them and boot two: the API alone on a test database, and the embedded server.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  bodyOf,
  createTestDatabase,
  getFreePort,
  type RunningProcess,
  startProcess,
  type TestDatabase,
  testRedisUrl,
  waitFor,
} from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(join(tmpdir(), 'firebreak-bundle-'));
let db: TestDatabase;
const children: RunningProcess[] = [];

beforeAll(async () => {
  execFileSync('pnpm', ['build'], { cwd: repoRoot, stdio: 'ignore' });
  db = await createTestDatabase();
}, 120_000);
afterAll(async () => {
  for (const child of children) await child.stop('SIGKILL');
  await db.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function boot(
  bundle: string,
  env: Record<string, string>,
): Promise<{ url: string; process: RunningProcess }> {
  const port = await getFreePort();
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env, PORT: String(port) };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  const started = startProcess('node', [bundle], { cwd: repoRoot, env: childEnv });
  children.push(started);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/health`)).ok, {
    timeoutMs: 60_000,
    what: `${bundle}:\n${started.output()}`,
  });
  return { url, process: started };
}

describe('production bundles', () => {
  it('the API bundle migrates its database and serves', async () => {
    const { url, process: app } = await boot('apps/api/dist/main.js', {
      DATABASE_URL: db.url,
      REDIS_URL: testRedisUrl,
    });
    await waitFor(async () => (await bodyOf(await fetch(`${url}/ready`))).status === 'ok', { what: 'ready' });
    const unauthenticated = await fetch(`${url}/api/v1/auth/me`);
    expect(unauthenticated.status).toBe(401);
    expect((await bodyOf(unauthenticated)).error.code).toBe('unauthorized');
    expect(await app.stop()).toBe(0);
  }, 60_000);

  it('the embedded server bundle starts its own PostgreSQL', async () => {
    const { url, process: app } = await boot('apps/server/dist/main.js', {
      DATA_DIR: dataDir,
      REDIS_URL: testRedisUrl,
    });
    expect(await bodyOf(await fetch(`${url}/ready`))).toEqual({ status: 'ok', database: 'ok', redis: 'ok' });
    // The API reference page's script is served by the bundle itself, not resolved from a package.
    const script = await fetch(`${url}/api/v1/docs/scalar.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('text/javascript');
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    expect(await app.stop()).toBe(0);
  }, 60_000);
});
