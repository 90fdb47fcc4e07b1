// CONTRACT.md §1: each app also starts alone, on its own default port or PORT, and answers /health
// and /ready itself; SIGTERM stops it cleanly.
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import {
  bodyOf,
  createTestDatabase,
  getFreePort,
  type TestDatabase,
  testRedisUrl,
  waitFor,
} from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = resolve(import.meta.dirname, '..');
let db: TestDatabase;
const children: ChildProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await db.drop();
});

async function startAlone(app: string): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const port = await getFreePort();
  const child = spawn(resolve(repoRoot, 'node_modules/.bin/tsx'), [`apps/${app}/src/main.ts`], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: db.url,
      REDIS_URL: testRedisUrl,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  await waitFor(() => output.includes(`"msg":"${app} listening"`), {
    timeoutMs: 30_000,
    what: `${app} to listen:\n${output}`,
  });
  return { child, url: `http://127.0.0.1:${port}`, output: () => output };
}

describe.each(['api', 'ingest', 'chat', 'worker'])('the %s app started alone', (app) => {
  it('answers /health and /ready, and stops cleanly on SIGTERM', async () => {
    const started = await startAlone(app);
    const health = await fetch(`${started.url}/health`);
    expect(await bodyOf(health)).toEqual({ status: 'ok' });
    await waitFor(async () => (await bodyOf(await fetch(`${started.url}/ready`))).status === 'ok', {
      what: `${app} ready`,
    });
    const exited = new Promise<number | null>((done) => started.child.once('exit', (code) => done(code)));
    started.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(started.output()).toContain('"msg":"stopped"');
  }, 60_000);
});
