// docs/runbooks/: every command in a `sh confirm` block is run here against a database or store broken
// the way its page says, every `sh verify` block after the page's fix, and each output is compared with
// the `text` block that follows the command (`…` = anything). A runbook whose commands drift from what
// operators would really see fails here.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import {
  createTestDatabase,
  getFreePort,
  PrivatePostgres,
  PrivatePostgresPair,
  PrivateRedis,
  type TestDatabase,
  testRedisUrl,
} from '@firebreak/testing';
import { serve } from '@hono/node-server';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FailingApi, startFailingApi } from './support/failing-api';

const run = promisify(execFile);
const runbooks = resolve(import.meta.dirname, '../docs/runbooks');

interface Step {
  phase: 'confirm' | 'verify';
  command: string;
  expected: string | undefined;
}

/** The page's `sh confirm` / `sh verify` blocks, each with the `text` block right after it. */
function stepsOf(page: string): Step[] {
  const markdown = readFileSync(resolve(runbooks, page), 'utf8');
  const blocks = [...markdown.matchAll(/```([^\n]*)\n([\s\S]*?)```/g)].map((m) => ({
    info: m[1]!.trim(),
    body: m[2]!.replace(/\n$/, ''),
    end: (m.index ?? 0) + m[0].length,
    start: m.index ?? 0,
  }));
  const steps: Step[] = [];
  blocks.forEach((block, i) => {
    const phase = /^sh (confirm|verify)$/.exec(block.info)?.[1] as Step['phase'] | undefined;
    if (!phase) return;
    const next = blocks[i + 1];
    const adjacent = next && next.info === 'text' && markdown.slice(block.end, next.start).trim() === '';
    steps.push({ phase, command: block.body, expected: adjacent ? next.body : undefined });
  });
  return steps;
}

/** `…` matches anything; every other character literally; the whole output must match. */
function matcher(expected: string): RegExp {
  const escaped = expected
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*');
  return new RegExp(`^${escaped}$`);
}

async function runStep(step: Step, env: Record<string, string>): Promise<void> {
  const result = await run('bash', ['-c', step.command], { env: { ...process.env, ...env } }).catch(
    (error: { stdout?: string; stderr?: string }) => ({
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
  const output = `${result.stdout}${result.stderr}`.trim();
  if (step.expected !== undefined) {
    expect(output, `${step.command}\n--- printed ---\n${output}`).toMatch(matcher(step.expected));
  }
}

/** A page's scenario: the broken set-up, and the set-up after the page's fix. */
interface Scenario {
  page: string;
  broken(): Promise<Record<string, string>>;
  fixed(): Promise<Record<string, string>>;
}

const cleanups: Array<() => Promise<unknown>> = [];
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await db.drop();
});

/** A real HTTP API (curl needs a port) on the given database and store; answers FIREBREAK_URL. */
async function firebreak(env: Record<string, string>, storeReachable = true): Promise<string> {
  const api: FailingApi = await startFailingApi(env, { storeReachable });
  const port = await getFreePort();
  const server = serve({ fetch: (request) => api.app.fetch(request), port, hostname: '127.0.0.1' });
  cleanups.push(async () => {
    await new Promise((done) => server.close(done));
    await api.close();
  });
  return `http://127.0.0.1:${port}`;
}

async function privatePostgres(flags: Parameters<typeof PrivatePostgres.start>[0] = {}) {
  const server = await PrivatePostgres.start(flags);
  cleanups.push(() => server.destroy());
  return server;
}

async function privateRedis(options: Parameters<typeof PrivateRedis.start>[0] = {}) {
  const server = await PrivateRedis.start(options);
  cleanups.push(() => server.destroy());
  return server;
}

const databasePage = (
  page: string,
  broken: () => Promise<{ url: string; fixedUrl: string; fix?: () => Promise<void> }>,
): Scenario => {
  let state: { url: string; fixedUrl: string; fix?: () => Promise<void> };
  return {
    page,
    broken: async () => {
      state = await broken();
      return {
        DATABASE_URL: state.url,
        FIREBREAK_URL: await firebreak({ DATABASE_URL: state.url, REDIS_URL: testRedisUrl }),
      };
    },
    fixed: async () => {
      await state.fix?.();
      const url = state.fixedUrl;
      return {
        DATABASE_URL: url,
        FIREBREAK_URL: await firebreak({ DATABASE_URL: url, REDIS_URL: testRedisUrl }),
      };
    },
  };
};

const storePage = (
  page: string,
  broken: () => Promise<{
    url: string;
    env?: Record<string, string>;
    fix?: () => Promise<Record<string, string>>;
  }>,
): Scenario => {
  let state: Awaited<ReturnType<typeof broken>>;
  return {
    page,
    broken: async () => {
      state = await broken();
      const env = { REDIS_URL: state.url, ...state.env };
      return { ...env, FIREBREAK_URL: await firebreak({ DATABASE_URL: db.url, ...env }, false) };
    },
    fixed: async () => {
      const env = { REDIS_URL: state.url, ...state.env, ...(await state.fix?.()) };
      return { ...env, FIREBREAK_URL: await firebreak({ DATABASE_URL: db.url, ...env }) };
    },
  };
};

const scenarios: Scenario[] = [
  databasePage('database-connection-refused.md', async () => {
    const server = await privatePostgres();
    await server.stop();
    return { url: server.url(), fixedUrl: server.url(), fix: () => server.start() };
  }),
  databasePage('database-password-authentication-failed.md', async () => {
    const server = await privatePostgres();
    return {
      url: server.url().replace(`:${server.password}@`, ':not-the-password@'),
      fixedUrl: server.url(),
    };
  }),
  (() => {
    let hog: postgres.Sql | undefined;
    return databasePage('database-too-many-connections.md', async () => {
      const server = await privatePostgres({
        postgresFlags: ['-c', 'max_connections=20', '-c', 'superuser_reserved_connections=0'],
      });
      hog = postgres(server.url(), { max: 20, onnotice: () => {} });
      const held = await Promise.all(Array.from({ length: 20 }, () => hog!.reserve()));
      const release = async () => {
        for (const connection of held) connection.release();
        await hog!.end();
      };
      cleanups.push(() => hog!.end());
      return { url: server.url(), fixedUrl: server.url(), fix: release };
    });
  })(),
  databasePage('database-failover.md', async () => {
    // A primary and its synchronous standby; the primary killed, the standby not promoted yet.
    const pair = await PrivatePostgresPair.start();
    cleanups.push(() => pair.destroy());
    await pair.primary.kill();
    return { url: pair.url(), fixedUrl: pair.url(), fix: () => pair.promoteStandby() };
  }),
  databasePage('database-ssl-connection-required.md', async () => {
    const server = await privatePostgres({ requireTls: true });
    return { url: `${server.url()}?sslmode=disable`, fixedUrl: `${server.url()}?sslmode=require` };
  }),
  storePage('store-connection-refused.md', async () => {
    const server = await privateRedis();
    await server.kill();
    return {
      url: server.url,
      fix: async () => {
        await server.start();
        return {};
      },
    };
  }),
  storePage('store-noauth.md', async () => {
    const server = await privateRedis({ password: 'store-password' });
    return { url: server.url, fix: async () => ({ KV_PASSWORD: 'store-password' }) };
  }),
  storePage('store-max-clients.md', async () => {
    const server = await privateRedis();
    const { Redis } = await import('ioredis');
    const hog = new Redis(server.url, { maxRetriesPerRequest: 0 });
    await hog.config('SET', 'maxclients', '1');
    return {
      url: server.url,
      // The page's fix: raise the limit.
      fix: async () => {
        await hog.config('SET', 'maxclients', '10000');
        hog.disconnect();
        return {};
      },
    };
  }),
];

describe.each(scenarios)('docs/runbooks/$page', (scenario) => {
  const steps = stepsOf(scenario.page);

  it('has commands to confirm the failure and to verify the recovery, each with its output', () => {
    expect(steps.filter((s) => s.phase === 'confirm').length).toBeGreaterThan(0);
    expect(steps.filter((s) => s.phase === 'verify').length).toBeGreaterThan(0);
    for (const step of steps) expect(step.expected, step.command).toBeDefined();
  });

  it('prints what the page says, broken and then fixed', async () => {
    const broken = await scenario.broken();
    for (const step of steps.filter((s) => s.phase === 'confirm')) await runStep(step, broken);
    const fixed = await scenario.fixed();
    for (const step of steps.filter((s) => s.phase === 'verify')) await runStep(step, fixed);
  }, 60_000);
});

it('every runbook in the index exists, and every page is in the index', () => {
  const index = readFileSync(resolve(runbooks, 'README.md'), 'utf8');
  const linked = new Set([...index.matchAll(/\]\(([a-z-]+\.md)(#[a-z-]+)?\)/g)].map((m) => m[1]!));
  const pages = readdirSync(runbooks).filter((f) => f.endsWith('.md') && f !== 'README.md');
  expect([...linked].sort()).toEqual(pages.sort());
});
