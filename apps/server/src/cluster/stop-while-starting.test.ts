// Ctrl-C (or a SIGTERM from a process manager) can come while the HTTP processes are still starting:
// some listen, others are loading. The stop drains them all and exits 0; it is not a failed start.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  createTestDatabase,
  getFreePort,
  PrivateRedis,
  type RunningProcess,
  startProcess,
  type TestDatabase,
} from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = resolve(import.meta.dirname, '../../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'firebreak-stop-starting-'));
let db: TestDatabase;
let redis: PrivateRedis;
const started: RunningProcess[] = [];

beforeAll(async () => {
  [db, redis] = await Promise.all([createTestDatabase(), PrivateRedis.start()]);
}, 60_000);

afterAll(async () => {
  for (const server of started) await server.stop('SIGKILL');
  await Promise.all([db.drop(), redis.destroy()]);
  rmSync(dataDir, { recursive: true, force: true });
});

async function startAndStopAtFirstListener(): Promise<{ code: number | null; output: string }> {
  const server = startProcess('node', ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      HTTP_PROCESSES: '3',
      PORT: String(await getFreePort()),
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    },
  });
  started.push(server);
  await server.waitForOutput('HTTP process taking connections', 90_000);
  const code = await server.stop('SIGTERM');
  return { code, output: server.output() };
}

describe('a stop while the HTTP processes start', () => {
  it('drains the ones that listen and the ones still loading, and exits 0 without a fatal line', async () => {
    // Three processes on a two-core machine: when the first listens, the others are still loading.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const { code, output } = await startAndStopAtFirstListener();
      expect(output).not.toMatch(/"level":"fatal"/);
      expect(output).not.toContain('EPIPE');
      expect(code).toBe(0);
    }
  }, 120_000);
});
