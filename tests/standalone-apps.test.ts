// Each app also starts alone (docs/api.md#processes), on its own default port or PORT, and answers
// /health and /ready itself; SIGTERM stops it cleanly.
import { rmSync } from 'node:fs';
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
let db: TestDatabase;
const children: RunningProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
const dataDirs: string[] = [];
afterAll(async () => {
  for (const child of children) await child.stop('SIGKILL');
  // Each holds the first admin's generated password.
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  await db.drop();
});

async function startAlone(app: string): Promise<{ process: RunningProcess; url: string }> {
  const port = await getFreePort();
  const dataDir = join(tmpdir(), `firebreak-standalone-${port}`);
  dataDirs.push(dataDir);
  const started = startProcess(resolve(repoRoot, 'node_modules/.bin/tsx'), [`apps/${app}/src/main.ts`], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: db.url,
      REDIS_URL: testRedisUrl,
      LOG_LEVEL: 'info',
      // The first admin's password file goes to a scratch directory, not the checkout's .data.
      DATA_DIR: dataDir,
    },
  });
  children.push(started);
  await started.waitForOutput(`"msg":"${app} listening"`);
  return { process: started, url: `http://127.0.0.1:${port}` };
}

describe.each(['api', 'ingest', 'chat', 'worker'])('the %s app started alone', (app) => {
  it('answers /health and /ready, and stops cleanly on SIGTERM', async () => {
    const started = await startAlone(app);
    const health = await fetch(`${started.url}/health`);
    expect(await bodyOf(health)).toEqual({ status: 'ok' });
    await waitFor(async () => (await bodyOf(await fetch(`${started.url}/ready`))).status === 'ok', {
      what: `${app} ready`,
    });
    expect(await started.process.stop('SIGTERM')).toBe(0);
    expect(started.process.output()).toContain('"msg":"stopped"');
  }, 60_000);
});
