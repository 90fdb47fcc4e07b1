import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  getFreePort,
  PrivatePostgres,
  type PrivatePostgresOptions,
  PrivateRedis,
  type PrivateRedisOptions,
  type RunningProcess,
  startProcess,
  waitFor,
} from '@firebreak/testing';
import postgres from 'postgres';
import type { Defer } from './types';

export const repoRoot = resolve(import.meta.dirname, '../..');
export const ADMIN = { email: 'drill@example.test', password: 'drill-password-123' };

/** A private PostgreSQL with an empty `firebreak` database: the drill may stop it at will. */
export async function startPostgres(
  defer: Defer,
  options: PrivatePostgresOptions = {},
): Promise<{ pg: PrivatePostgres; databaseUrl: string }> {
  const pg = await PrivatePostgres.start(options);
  defer(() => pg.destroy());
  const admin = postgres(pg.url(), { max: 1, onnotice: () => {} });
  await admin`create database firebreak`;
  await admin.end();
  return { pg, databaseUrl: pg.url('firebreak') };
}

export async function startRedis(defer: Defer, options: PrivateRedisOptions = {}): Promise<PrivateRedis> {
  const redis = await PrivateRedis.start(options);
  defer(() => redis.destroy());
  return redis;
}

export interface Firebreak {
  url: string;
  port: number;
  process: RunningProcess;
  /** Admin session token (from `BOOTSTRAP_ADMIN_*`). */
  token: string;
  /** SIGKILL: a crash; nothing is flushed or finished. */
  crash(): Promise<void>;
}

/**
 * `pnpm start` (apps/server/src/main.ts: every route, the worker and the chat worker in one process) as
 * its own process on the drill's private stores. It runs as `node --import tsx` rather than through the
 * tsx CLI so that a signal reaches the server itself and not a wrapper that relays it.
 */
export async function startFirebreak(
  defer: Defer,
  stores: { databaseUrl: string; redisUrl?: string },
  env: Record<string, string> = {},
  options: { port?: number; app?: 'server' | 'worker' } = {},
): Promise<Firebreak> {
  const port = options.port ?? (await getFreePort());
  const dataDir = mkdtempSync(join(tmpdir(), 'firebreak-drill-'));
  const app = options.app ?? 'server';
  const child = startProcess('node', ['--import', 'tsx', `apps/${app}/src/main.ts`], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: stores.databaseUrl,
      ...(stores.redisUrl ? { REDIS_URL: stores.redisUrl } : {}),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      // The drills measure the promises, not the API rate limiter.
      RATE_LIMIT_REQUESTS_PER_MINUTE: '100000000',
      ...env,
    },
  });
  defer(async () => {
    await child.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });
  const url = `http://127.0.0.1:${port}`;
  let started = false;
  await Promise.race([
    waitFor(async () => (await fetch(`${url}/health`)).ok, {
      timeoutMs: 90_000,
      intervalMs: 200,
      what: `${app} on port ${port}`,
    }).finally(() => {
      started = true;
    }),
    child.exited().then((code) => {
      if (!started)
        throw new Error(`${app} exited (${code}) while starting:\n${child.output().slice(-2000)}`);
    }),
  ]);
  const token = app === 'server' ? await login(url) : '';
  return { url, port, process: child, token, crash: async () => void (await child.stop('SIGKILL')) };
}

async function login(url: string): Promise<string> {
  const session = await waitFor(
    async () => {
      const res = await fetch(`${url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ADMIN),
      });
      return res.ok ? ((await res.json()) as { token: string }) : undefined;
    },
    { timeoutMs: 30_000, what: 'admin login' },
  );
  return session.token;
}

/** An authenticated JSON call that must succeed. */
export async function api<T = Record<string, unknown>>(
  service: { url: string; token: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Runs `fn` with a one-connection client on `databaseUrl` (the drill's own checks). */
export async function withSql<T>(databaseUrl: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end();
  }
}
