import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { type Config, DEFAULT_REDIS_URL } from '@firebreak/config';
import type { Logger } from '@firebreak/logger';
import getPort from 'get-port';
import { Redis } from 'ioredis';

export interface StoreChoice {
  url: string;
  mode: 'configured' | 'existing' | 'spawned' | 'degraded';
  stop(): Promise<void>;
}

/**
 * The key-value store for `pnpm start` (docs/architecture.md#shape): REDIS_URL or Sentinel when configured;
 * else whatever answers at the default address; else a `redis-server` of our own with append-only
 * persistence under `<DATA_DIR>/redis` (the queue must survive restarts); else none: start
 * anyway, degraded, exactly as during a store outage, and say so once.
 */
export async function chooseStore(
  config: Config,
  logger: Logger,
  defaultUrl: string = DEFAULT_REDIS_URL,
): Promise<StoreChoice> {
  const none = async () => {};
  if (config.redis.url || config.redis.sentinels) {
    return { url: config.redis.url ?? defaultUrl, mode: 'configured', stop: none };
  }
  if (await answersPing(defaultUrl, config.redis.password)) {
    return { url: defaultUrl, mode: 'existing', stop: none };
  }
  const binary = findOnPath('redis-server');
  if (!binary) {
    logger.warn(
      `redis: nothing answers at ${defaultUrl} and no redis-server is on PATH; running degraded: ` +
        'the API works, background work (chat, escalations, AI) waits until a store is reachable',
    );
    return { url: defaultUrl, mode: 'degraded', stop: none };
  }
  return spawnRedis(binary, join(config.dataDir, 'redis'), config.redis.password, logger);
}

async function spawnRedis(
  binary: string,
  dir: string,
  password: string | undefined,
  logger: Logger,
): Promise<StoreChoice> {
  mkdirSync(dir, { recursive: true });
  await stopLeftover(join(dir, 'firebreak-redis.pid'), logger);
  const port = await getPort({ host: '127.0.0.1' });
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--appendonly',
    'yes',
    '--save',
    '',
  ];
  if (password) args.push('--requirepass', password);
  const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  writeFileSync(join(dir, 'firebreak-redis.pid'), String(child.pid));
  const url = `redis://127.0.0.1:${port}`;
  const started = Date.now();
  while (!(await answersPing(url, password))) {
    if (child.exitCode !== null || Date.now() - started > 10_000) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not start (exit code ${child.exitCode ?? 'none'})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  logger.info({ port, dir }, 'started redis-server with append-only persistence');
  return { url, mode: 'spawned', stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A redis-server left running by a start that was killed would share our append-only file. */
async function stopLeftover(pidFile: string, logger: Logger): Promise<void> {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  const isRedis = () => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('redis-server');
    } catch {
      return false; // not running (or not ours to inspect)
    }
  };
  if (!isRedis()) return;
  process.kill(pid, 'SIGTERM');
  logger.warn({ pid }, 'stopping a redis-server left running by an earlier start');
  for (let waited = 0; isRedis() && waited < 10_000; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function answersPing(url: string, password: string | undefined): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    ...(password ? { password } : {}),
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // keep looking
    }
  }
  return undefined;
}
