// The README's bulk-resolution script, run as written against a live API (README.md#bulk-resolution).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { createApp } from '@firebreak/api';
import { type RunningServer, startServer } from '@firebreak/runtime';
import { createTestRuntime, createTestUser, type TestRuntime } from '@firebreak/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
let runtime: TestRuntime;
let server: RunningServer;

function readmeBlock(): string {
  const readme = readFileSync(resolve(import.meta.dirname, '../README.md'), 'utf8');
  const match = /<!-- bulk-resolve[^>]*-->\s*```sh\n([\s\S]*?)```/.exec(readme);
  if (!match) throw new Error('the README has no bulk-resolve block');
  return match[1]!;
}

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { RATE_LIMIT_REQUESTS_PER_MINUTE: '100000' } });
  server = await startServer(
    createApp({ ctx: runtime.ctx, ready: runtime.ready, config: runtime.config }),
    0,
    runtime.logger,
    '127.0.0.1',
  );
});
afterAll(async () => {
  await server.close();
  await runtime.cleanup();
});

describe('README bulk resolution', () => {
  it('resolves every triggered incident, more than one page of them, and leaves the others alone', async () => {
    await runtime.sql`
      insert into incidents (title, severity, source, created_at)
      select 'storm ' || g, 'high', 'alert', now() from generate_series(1, 620) g`;
    await runtime.sql`
      insert into incidents (title, severity, status, source, acknowledged_at)
      values ('being worked', 'critical', 'acknowledged', 'manual', now())`;
    const member = await createTestUser(runtime, 'member');

    const { stdout } = await run('bash', ['-c', `set -eu\n${readmeBlock()}`], {
      env: { ...process.env, API: server.url, TOKEN: member.token },
      timeout: 120_000,
    });
    expect(stdout.trim().split('\n')).toEqual(['resolved 500', 'resolved 120', 'resolved 0']);
    const counts =
      await runtime.sql`select status, count(*)::int as n from incidents group by status order by status`;
    expect(counts).toEqual([
      { status: 'acknowledged', n: 1 },
      { status: 'resolved', n: 620 },
    ]);
  }, 150_000);
});
