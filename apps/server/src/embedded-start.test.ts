// The embedded default end to end (issue: "Done means"): a real `pnpm start` process on a fresh
// DATA_DIR with no DATABASE_URL, then a second start on the same data.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bodyOf, getFreePort, type RunningProcess, startProcess, waitFor } from '@firebreak/testing';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = resolve(import.meta.dirname, '../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'firebreak-start-'));
const running: RunningProcess[] = [];

afterAll(async () => {
  for (const started of running) await started.stop('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

interface Started {
  process: RunningProcess;
  url: string;
  output: () => string;
}

async function start(port: number): Promise<Started> {
  const env: Record<string, string | undefined> = { ...process.env, PORT: String(port), DATA_DIR: dataDir };
  for (const name of [
    'DATABASE_URL',
    'DATABASE_URL_FILE',
    'BOOTSTRAP_ADMIN_EMAIL',
    'BOOTSTRAP_ADMIN_PASSWORD',
  ]) {
    delete env[name];
  }
  // Its own process group, so that "Ctrl-C" below reaches pnpm and Firebreak together.
  const started = startProcess('pnpm', ['start'], { cwd: repoRoot, env, detached: true });
  running.push(started);
  const output = await started.waitForOutput(/Firebreak is running at (\S+)/, 60_000);
  const url = /Firebreak is running at (\S+)/.exec(output)![1]!;
  return { process: started, url, output: started.output };
}

/**
 * Ctrl-C: SIGINT to the whole process group, as a terminal sends it. pnpm itself exits through the
 * signal; what matters is that Firebreak shut down in order and said so.
 */
async function interrupt(started: Started): Promise<void> {
  process.kill(-started.process.child.pid!, 'SIGINT');
  await started.process.exited();
  await waitFor(() => started.output().includes('"msg":"stopped"'), { timeoutMs: 15_000, what: 'stopped' });
}

async function login(url: string, email: string, password: string): Promise<number> {
  const res = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return res.status;
}

describe('pnpm start (embedded default)', () => {
  let password = '';

  it('comes up with an embedded database, prints the URL and the first admin, and serves', async () => {
    const port = await getFreePort();
    const first = await start(port);
    expect(first.url).toBe(`http://localhost:${port}`);
    const admin = /First admin: (\S+) \/ (\S+)/.exec(first.output());
    expect(admin?.[1]).toBe('admin@localhost');
    password = admin![2]!;

    const health = await fetch(`${first.url}/health`);
    expect(health.status).toBe(200);
    const ready = await fetch(`${first.url}/ready`);
    expect(ready.status).toBe(200);
    expect(await bodyOf(ready)).toEqual({ status: 'ok', database: 'ok', redis: 'ok' });
    expect(await login(first.url, 'admin@localhost', password)).toBe(200);
    expect(existsSync(join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);

    const pid = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    await interrupt(first);
    // Ctrl-C stopped the embedded database too.
    await waitFor(() => !existsSync(join(dataDir, 'postgres', 'postmaster.pid')), {
      what: 'postgres stopped',
    });
    expect(() => process.kill(pid, 0)).toThrow();
    expect(first.output()).not.toMatch(/"level":"(error|fatal)"/);
  }, 120_000);

  it('reuses the same data on a second start', async () => {
    const second = await start(await getFreePort());
    expect(second.output()).not.toContain('First admin');
    expect(await login(second.url, 'admin@localhost', password)).toBe(200);
    await interrupt(second);
  }, 120_000);
});
