import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@firebreak/config';
import { captureLogs, getFreePort, testRedisUrl } from '@firebreak/testing';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseStore } from './embedded-redis';

const dataDir = mkdtempSync(join(tmpdir(), 'firebreak-store-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function deadUrl(): Promise<string> {
  return `redis://127.0.0.1:${await getFreePort()}`;
}

describe('chooseStore (pnpm start without REDIS_URL)', () => {
  it('uses REDIS_URL as configured, without probing', async () => {
    const { logger } = captureLogs();
    const config = loadConfig({ REDIS_URL: 'redis://redis.internal:6380', DATA_DIR: dataDir });
    const store = await chooseStore(config, logger, await deadUrl());
    expect(store).toMatchObject({ url: 'redis://redis.internal:6380', mode: 'configured' });
  });

  it('uses a Redis that answers at the default address', async () => {
    const { logger } = captureLogs();
    const store = await chooseStore(loadConfig({ DATA_DIR: dataDir }), logger, testRedisUrl);
    expect(store).toMatchObject({ url: testRedisUrl, mode: 'existing' });
  });

  it('starts its own redis-server with append-only persistence under DATA_DIR, and stops it', async () => {
    const { logger } = captureLogs();
    const store = await chooseStore(loadConfig({ DATA_DIR: dataDir }), logger, await deadUrl());
    expect(store.mode).toBe('spawned');
    const client = new Redis(store.url);
    try {
      expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
      expect(await client.config('GET', 'dir')).toEqual(['dir', join(dataDir, 'redis')]);
      await client.set('probe', 'kept');
    } finally {
      client.disconnect();
    }
    await store.stop();
    expect(existsSync(join(dataDir, 'redis', 'appendonlydir'))).toBe(true);

    // The next start finds the data again.
    const again = await chooseStore(loadConfig({ DATA_DIR: dataDir }), logger, await deadUrl());
    const reader = new Redis(again.url);
    try {
      expect(await reader.get('probe')).toBe('kept');
    } finally {
      reader.disconnect();
      await again.stop();
    }
  });

  it('runs degraded, and says so once, when there is neither a Redis nor a redis-server binary', async () => {
    const logs = captureLogs();
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const url = await deadUrl();
      const store = await chooseStore(loadConfig({ DATA_DIR: dataDir }), logs.logger, url);
      expect(store).toMatchObject({ url, mode: 'degraded' });
    } finally {
      process.env.PATH = path;
    }
    const warnings = logs.lines.filter((line) => line.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/no redis-server is on PATH; running degraded/);
  });
});
