import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEFAULT_CHAT_USERS,
  type FakeChatApi,
  getFreePort,
  startFakeChatApi,
  waitFor,
} from '@firebreak/testing';
import { startProxy } from '../../infra/local/nginx';
import { startSplitDeployment } from '../../infra/local/split-deployment';
import { coresUsedDuring } from '../lib/cpu';
import { settle } from '../lib/environment';
import { type LoadResult, load } from '../lib/load';
import type { BenchResult } from '../lib/types';

const ADMIN = { email: 'bench@example.test', password: 'bench-password-123' };
const ROUNDS = 2; // 1 replica, 2 replicas, alternating, this many times each
const INCIDENTS_PER_RUN = 10;
const TIER_SECONDS = 2;

/**
 * The split deployment with two API, two ingest and two worker processes behind nginx (what
 * `REPLICAS=2 pnpm start:split` runs), driven at the intake benchmark's load (single unique alerts,
 * 32 connections, 10 s): through a proxy that knows one replica of each app, then through the one that
 * balances over both, alternately, so the machine's mood falls on both alike. Where the CPU went during
 * each run says what limits the scaling. Escalations opened through the API during the runs must page
 * each person once between the two workers, or the benchmark fails.
 */
export async function replicasUnderLoad(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'firebreak-bench-replicas-'));
  const chat = await startFakeChatApi();
  try {
    const deployment = await startSplitDeployment({
      dataDir,
      replicas: { ingest: 2, api: 2, worker: 2 },
      buildWebUi: false,
      log: () => {},
      appEnv: {
        BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
        BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
        RATE_LIMIT_REQUESTS_PER_MINUTE: '100000000',
        LOG_LEVEL: 'warn',
        CHAT_BOT_TOKEN: chat.botToken,
        CHAT_API_URL: chat.url,
        CHAT_SIGNING_SECRET: 'bench-signing-secret',
      },
    });
    try {
      const onePort = await getFreePort();
      const oneEach = startProxy({
        prefix: join(dataDir, 'nginx-one-replica'),
        ports: {
          listen: onePort,
          ingest: [deployment.replicas.ingest[0]!.port],
          api: [deployment.replicas.api[0]!.port],
          chat: [deployment.ports.chat],
        },
        log: () => {},
      });
      const oneUrl = `http://127.0.0.1:${onePort}`;
      await waitFor(async () => (await fetch(`${oneUrl}/health`)).ok, { timeoutMs: 15_000, what: 'nginx' });
      try {
        return await measure(deployment, { url: oneUrl, pid: oneEach.pid! }, chat, dataDir);
      } finally {
        await oneEach.stop();
      }
    } finally {
      await deployment.stop();
    }
  } finally {
    await chat.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

type Deployment = Awaited<ReturnType<typeof startSplitDeployment>>;

async function measure(
  deployment: Deployment,
  oneEach: { url: string; pid: number },
  chat: FakeChatApi,
  dataDir: string,
) {
  const token = await login(deployment.url);
  await twoTierPolicy(deployment.url, token);
  const trees = processTrees(deployment, dataDir, oneEach.pid);
  const runs: Record<'1' | '2', Array<{ load: LoadResult; cores: Record<string, number> }>> = {
    1: [],
    2: [],
  };
  const incidents: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const replicas of ['1', '2'] as const) {
      await settle(deployment.databaseUrl);
      const url = replicas === '1' ? oneEach.url : deployment.url;
      const opening = openIncidents(deployment.url, token, INCIDENTS_PER_RUN);
      const { result, cores } = await coresUsedDuring(trees, () =>
        load({
          url: `${url}/api/v1/webhooks/generic`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          makeBody: () => single(`r-${randomUUID()}`),
          connections: 32,
          durationSeconds: 10,
        }),
      );
      incidents.push(...(await opening));
      if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0)
        throw new Error(`replicas: ${result.non2xx} non-2xx, ${result.errors} errors of ${result.total}`);
      runs[replicas].push({ load: result, cores });
    }
  }
  const pages = await pagesExactlyOnce(chat, incidents.length);
  const mean = (replicas: '1' | '2', pick: (run: (typeof runs)['1'][number]) => number) =>
    runs[replicas].reduce((sum, run) => sum + pick(run), 0) / runs[replicas].length;
  const rate = (replicas: '1' | '2') => mean(replicas, (run) => run.load.requestsPerSecond);
  const share = (replicas: '1' | '2') =>
    Object.keys(runs[replicas][0]!.cores).map(
      (name): BenchResult => ({
        name: `  CPU, ${replicas} replica${replicas === '2' ? 's' : ''}: ${name}`,
        value: Math.round(mean(replicas, (run) => run.cores[name]!) * 100) / 100,
        unit: 'cores',
      }),
    );
  return [
    { name: 'intake through nginx, 1 replica of each app (c=32)', value: rate('1'), unit: 'req/s' },
    { name: '  latency p99', value: mean('1', (run) => run.load.p99Ms), unit: 'ms' },
    { name: 'intake through nginx, 2 replicas of each app (c=32)', value: rate('2'), unit: 'req/s' },
    { name: '  latency p99', value: mean('2', (run) => run.load.p99Ms), unit: 'ms' },
    { name: '2 replicas ÷ 1 replica', value: Math.round((rate('2') / rate('1')) * 100) / 100, unit: '×' },
    ...share('1'),
    ...share('2'),
    {
      name: `pages during the runs (${pages.expected} each tier)`,
      value: pages.tier1 + pages.tier2,
      unit: 'pages',
    },
  ];
}

function processTrees(deployment: Deployment, dataDir: string, otherProxy: number): Record<string, number[]> {
  const pids = (list: Array<{ pid: number | undefined }>) => list.map((p) => p.pid!).filter(Boolean);
  const postmaster = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    PostgreSQL: [postmaster],
    'ingest replicas': pids(deployment.replicas.ingest.map((r) => r.process)),
    'api replicas': pids(deployment.replicas.api.map((r) => r.process)),
    'worker replicas': pids(deployment.replicas.worker.map((r) => r.process)),
    'nginx (both proxies)': [...pids([deployment.proxy]), otherProxy],
    Redis: pids([deployment.store.primary, deployment.store.replica, ...deployment.store.sentinels]),
  };
}

/** Each tier's person paged once per incident, whichever worker fired the step. */
async function pagesExactlyOnce(chat: FakeChatApi, expected: number) {
  const [first, second] = DEFAULT_CHAT_USERS;
  const count = () => ({ tier1: chat.dms(first!.id).length, tier2: chat.dms(second!.id).length, expected });
  await waitFor(() => count().tier2 >= expected || undefined, { timeoutMs: 90_000, what: 'every page' });
  await new Promise((resolve) => setTimeout(resolve, 3000)); // a doubled page would show by now
  const pages = count();
  if (pages.tier1 !== expected || pages.tier2 !== expected)
    throw new Error(`replicas: pages ${pages.tier1} / ${pages.tier2}, expected ${expected} each`);
  return pages;
}

const single = (externalId: string) =>
  JSON.stringify({
    alerts: [
      { title: 'CPU high on web-1', severity: 'info', external_id: externalId, labels: { host: 'web-1' } },
    ],
  });

async function call<T>(url: string, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function login(url: string): Promise<string> {
  return (await call<{ token: string }>(url, '', 'POST', '/api/v1/auth/login', ADMIN)).token;
}

/** Two tiers of `TIER_SECONDS`, one chat user each, as the installation's default policy. */
async function twoTierPolicy(url: string, token: string): Promise<void> {
  const people = await Promise.all(
    DEFAULT_CHAT_USERS.slice(0, 2).map((user) =>
      call<{ id: string }>(url, token, 'POST', '/api/v1/users', {
        email: user.email,
        name: user.realName,
        role: 'member',
        slack_user_id: user.id,
      }),
    ),
  );
  const policy = await call<{ id: string }>(url, token, 'POST', '/api/v1/escalation-policies', {
    name: 'Bench: two tiers',
    tiers: people.map((person) => ({
      target_type: 'users',
      user_ids: [person.id],
      timeout_seconds: TIER_SECONDS,
    })),
  });
  await call(url, token, 'PATCH', '/api/v1/settings', { default_escalation_policy_id: policy.id });
}

/** `count` incidents through the API replicas, one every half second. */
async function openIncidents(url: string, token: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const incident = await call<{ id: string }>(url, token, 'POST', '/api/v1/incidents', {
      title: `Bench replicas ${randomUUID()}`,
      severity: 'high',
    });
    ids.push(incident.id);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return ids;
}
