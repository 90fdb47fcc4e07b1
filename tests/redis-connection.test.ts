// How the service reaches Redis (README.md#configuration): a plain URL with KV_PASSWORD, and Sentinel with
// KV_SENTINEL_ADDRS / KV_SENTINEL_MASTER. Private servers only.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestRuntime, type TestRuntime } from '@firebreak/runtime/testing';
import { getFreePort, PrivateRedis, type RunningProcess, startProcess, waitFor } from '@firebreak/testing';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function readyRedis(runtime: TestRuntime): Promise<string> {
  return (await runtime.ready()).redis;
}

describe('KV_PASSWORD', () => {
  it('authenticates to a Redis that requires a password, and reports error without it', async () => {
    const redis = await PrivateRedis.start({ password: 'kv-secret-123' });
    cleanups.push(() => redis.destroy());
    const withPassword = await createTestRuntime({
      redisUrl: redis.url,
      env: { KV_PASSWORD: 'kv-secret-123' },
    });
    cleanups.push(() => withPassword.cleanup());
    const without = await createTestRuntime({ redisUrl: redis.url });
    cleanups.push(() => without.cleanup());

    await waitFor(async () => (await readyRedis(withPassword)) === 'ok', { what: 'authenticated redis' });
    // Each runtime has its own readiness cache, so nothing needs to expire: the first answer is fresh.
    expect(await readyRedis(without)).toBe('error');
    // The client reports the refusal when its connection's ready check fails, not when /ready asks.
    await waitFor(() => without.logs.messages().some((m) => /NOAUTH|Authentication required/i.test(m)), {
      what: 'the NOAUTH log line',
    });
  });
});

describe('KV_SENTINEL_ADDRS', () => {
  it('finds the primary through Sentinel', async () => {
    const primary = await PrivateRedis.start();
    cleanups.push(() => primary.destroy());
    const dir = mkdtempSync(join(tmpdir(), 'firebreak-sentinel-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const port = await getFreePort();
    const config = join(dir, 'sentinel.conf');
    writeFileSync(
      config,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor testmaster 127.0.0.1 ${primary.port} 1`,
      ].join('\n'),
    );
    const sentinel: RunningProcess = startProcess('redis-server', [config, '--sentinel'], {
      cwd: dir,
      env: process.env,
    });
    cleanups.push(async () => {
      await sentinel.stop('SIGKILL');
    });
    await sentinel.waitForOutput(/Sentinel ID is|monitor master/i, 10_000).catch(() => undefined);

    const runtime = await createTestRuntime({
      env: { KV_SENTINEL_ADDRS: `127.0.0.1:${port}`, KV_SENTINEL_MASTER: 'testmaster' },
    });
    cleanups.push(() => runtime.cleanup());
    await waitFor(async () => (await readyRedis(runtime)) === 'ok', {
      what: 'redis through sentinel',
      timeoutMs: 15_000,
    });
    await runtime.redis.set(`${runtime.ctx.redisPrefix}probe`, 'through-sentinel');
    // The write landed on the primary the sentinel named.
    const direct = new Redis(primary.url);
    try {
      expect(await direct.get(`${runtime.ctx.redisPrefix}probe`)).toBe('through-sentinel');
    } finally {
      direct.disconnect();
    }
  }, 30_000);
});
