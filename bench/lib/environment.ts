import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { getFreePort, PrivatePostgres, PrivateRedis, waitFor } from '@firebreak/testing';
import postgres from 'postgres';
import type { BenchEnvironment } from './types';

const repoRoot = resolve(import.meta.dirname, '../..');
const ADMIN = { email: 'bench@example.test', password: 'bench-password-123' };

export interface RunningEnvironment extends BenchEnvironment {
  stop(): Promise<void>;
}

export interface EnvironmentOptions {
  /** More environment for the server, e.g. `CHAT_BOT_TOKEN` and `CHAT_API_URL` of a fake chat API. */
  env?: Record<string, string>;
  /**
   * `bundle`: the production build under plain node (throughput numbers). `pnpm-start`: exactly what
   * `pnpm start` runs (the same bundle), for its memory. `sources`: what `pnpm start:src` runs (tsx on
   * the sources), for comparison.
   */
  command?: 'bundle' | 'pnpm-start' | 'sources';
}

// One build per `pnpm bench`, however many environments its suites start.
let built = false;

/**
 * A private PostgreSQL and Redis (never the machine's shared ones) and the production bundle of
 * `pnpm start` on them, in its own process so that load generation does not share its CPU time.
 */
export async function startEnvironment(options: EnvironmentOptions = {}): Promise<RunningEnvironment> {
  const fromSources = options.command === 'sources';
  if (!built && !fromSources) execFileSync('pnpm', ['build'], { cwd: repoRoot, stdio: 'inherit' });
  built ||= !fromSources;
  const [pg, redis] = await Promise.all([
    // Commit timestamps let a suite measure from a transaction's commit (escalation: commit → notified).
    PrivatePostgres.start({
      postgresFlags: ['-c', 'max_connections=200', '-c', 'track_commit_timestamp=on'],
    }),
    PrivateRedis.start({ appendOnly: true }),
  ]);
  const admin = postgres(pg.url(), { max: 1, onnotice: () => {} });
  await admin`create database firebreak_bench`;
  await admin.end();
  const databaseUrl = pg.url('firebreak_bench');

  const port = await getFreePort();
  const [command, args] = fromSources
    ? [resolve(repoRoot, 'node_modules/.bin/tsx'), ['apps/server/src/main.ts']]
    : ['node', ['apps/server/dist/main.js']];
  const server: ChildProcess = spawn(command, args, {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      LOG_LEVEL: 'warn',
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      // The benchmarks measure the service, not the rate limiter.
      RATE_LIMIT_REQUESTS_PER_MINUTE: '100000000',
      ...options.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/health`)).ok, { timeoutMs: 60_000, what: 'server' });
  const login = await waitFor(
    async () => {
      const res = await fetch(`${url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ADMIN),
      });
      return res.ok ? ((await res.json()) as { token: string }) : undefined;
    },
    { what: 'admin login' },
  );
  return {
    url,
    adminToken: login.token,
    databaseUrl,
    redisUrl: redis.url,
    serverPid: server.pid!,
    stop: async () => {
      await new Promise((done) => {
        server.once('exit', done);
        server.kill('SIGTERM');
      });
      await Promise.all([pg.destroy(), redis.destroy()]);
    },
  };
}

/** Resident set size of a process, from /proc (Linux). */
export function rssMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** The process and all its descendants (tsx runs the service in a child node process). */
export function treeRssMegabytes(pid: number): number {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return rssMegabytes(pid) + children.reduce((sum, child) => sum + treeRssMegabytes(child), 0);
}

/**
 * Proportional set size of a process, from /proc (Linux): each shared page (the node binary, libraries,
 * the bundle's file pages) divided among the processes mapping it, so a tree's sum counts it once.
 */
export function pssMegabytes(pid: number): number {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  return Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) / 1024;
}

/** The process tree's PSS: what the tree adds to the machine's memory, shared pages once. */
export function treePssMegabytes(pid: number): number {
  return pssMegabytes(pid) + childrenOf(pid).reduce((sum, child) => sum + treePssMegabytes(child), 0);
}

/** The direct children of a process (the HTTP processes of `pnpm start`, a launcher's child). */
export function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
}

/**
 * Lets the database finish the previous run's work (dirty pages, dead rows) before the next
 * measurement, so each number describes its own load and not the tail of the one before.
 */
export async function settle(databaseUrl: string): Promise<void> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql`checkpoint`;
    await sql`vacuum analyze`;
  } finally {
    await sql.end();
  }
}
