import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import postgres from 'postgres';
import { coresUsedDuring } from '../lib/cpu';
import { settle } from '../lib/environment';
import { type LoadResult, load } from '../lib/load';
import type { BenchEnvironment, Benchmark, BenchResult } from '../lib/types';
import { type WalWritten, walWrittenDuring } from '../lib/wal';

const PATH = '/api/v1/webhooks/generic';
const ROUNDS = 2;

// `info` matches no rule of a fresh installation (the alert is stored, nothing else); `critical` matches
// the default rule, so every request opens an incident and starts its escalation.
const single = (severity: 'info' | 'critical') => () =>
  JSON.stringify({
    alerts: [
      {
        title: 'CPU high on web-1',
        severity,
        external_id: `${severity}-${randomUUID()}`,
        labels: { host: 'web-1' },
      },
    ],
  });

async function api(env: BenchEnvironment, method: string, path: string, body: unknown) {
  const res = await fetch(`${env.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${env.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/**
 * Every incident is paged as in a real installation: a default policy whose one tier is a person, so
 * each opening also starts an escalation that the worker fires while the load runs.
 */
async function pageSomeone(env: BenchEnvironment): Promise<void> {
  const person = await api(env, 'POST', '/api/v1/users', {
    email: `intake-${Date.now()}@bench.test`,
    name: 'Bench on-call',
    role: 'member',
  });
  const policy = await api(env, 'POST', '/api/v1/escalation-policies', {
    name: `Bench intake ${Date.now()}`,
    tiers: [{ target_type: 'users', user_ids: [person.id], timeout_seconds: 300 }],
  });
  await api(env, 'PATCH', '/api/v1/settings', { default_escalation_policy_id: policy.id });
}

/** CPU milliseconds each part of the machine spent per request of a run. */
type CpuPerRequest = Record<'PostgreSQL' | 'server' | 'load generator' | 'rest', number>;
type Measured = LoadResult & { cpu: CpuPerRequest; wal: WalWritten; busiestShare: number };

/** Requests each HTTP process has answered so far, from the server's own counter. */
async function requestsByProcess(env: BenchEnvironment): Promise<Map<string, number>> {
  const metrics = await (await fetch(`${env.url}/metrics`)).text();
  const counts = metrics.matchAll(/^firebreak_http_requests_by_process_total\{process="(\d+)"\} (\d+)$/gm);
  return new Map([...counts].map((match) => [match[1]!, Number(match[2])]));
}

const walUnit = { bytes: 'bytes', records: 'records', fullPageImages: 'full-page images' } as const;

/** The private PostgreSQL's postmaster: the parent of a backend (it runs on this machine). */
async function postmasterPid(databaseUrl: string): Promise<number> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const stat = readFileSync(`/proc/${row!.pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } finally {
    await sql.end();
  }
}

async function measure(
  env: BenchEnvironment,
  severity: 'info' | 'critical',
  pgPid: number,
): Promise<Measured> {
  await settle(env.databaseUrl);
  const answeredBefore = await requestsByProcess(env);
  const {
    result: { result: run, cores },
    wal,
  } = await walWrittenDuring(env.databaseUrl, () =>
    coresUsedDuring({ PostgreSQL: [pgPid], server: [env.serverPid] }, () =>
      load({
        url: `${env.url}${PATH}`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        connections: 32,
        durationSeconds: 10,
        makeBody: single(severity),
      }),
    ),
  );
  const answered = [...(await requestsByProcess(env))].map(
    ([slot, n]) => n - (answeredBefore.get(slot) ?? 0),
  );
  if (run.non2xx > 0 || run.errors > 0 || run.timeouts > 0) {
    throw new Error(`${severity}: ${run.non2xx} non-2xx, ${run.errors} errors, ${run.timeouts} timeouts`);
  }
  // Cores used over requests a second: CPU seconds per request, in milliseconds.
  const perRequest = (used: number | undefined) => ((used ?? 0) / run.requestsPerSecond) * 1000;
  return {
    ...run,
    // One process (a one-core machine) has no count per process: it served everything.
    busiestShare: answered.length > 0 ? Math.max(...answered) / answered.reduce((sum, n) => sum + n, 0) : 1,
    wal: {
      records: wal.records / run.total,
      fullPageImages: wal.fullPageImages / run.total,
      bytes: wal.bytes / run.total,
    },
    cpu: {
      PostgreSQL: perRequest(cores.PostgreSQL),
      server: perRequest(cores.server),
      'load generator': perRequest(cores['load generator (this process)']),
      rest: perRequest(cores['everything else on the machine']),
    },
  };
}

/**
 * Alerts that open an incident against alerts that are only stored, same bodies but the severity,
 * same 32 connections, on a fresh installation's defaults (the default rule opens incidents for
 * critical alerts; no escalation policy yet). The two alternate, and which goes first alternates by
 * round, so the machine's drift and the growing tables weigh on both alike: the targets are ratios
 * within this one run. A last run pages someone for every incident (a default policy), for the record:
 * then the worker fires a step per incident while the load runs, on the same cores.
 */
export const incidentIntake: Benchmark = {
  name: 'incident-creating intake',
  async run(env) {
    // Distinct failures at this rate are a storm: storm mode would absorb all but the first ten into one
    // incident. This measures openings; the storm suite measures storms.
    await api(env, 'PATCH', '/api/v1/settings', { storm_mode_enabled: false });
    const pgPid = await postmasterPid(env.databaseUrl);
    const stored: Measured[] = [];
    const opened: Measured[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const openingFirst = round % 2 === 1;
      if (openingFirst) opened.push(await measure(env, 'critical', pgPid));
      stored.push(await measure(env, 'info', pgPid));
      if (!openingFirst) opened.push(await measure(env, 'critical', pgPid));
    }
    await pageSomeone(env);
    const paged = await measure(env, 'critical', pgPid);
    await api(env, 'PATCH', '/api/v1/settings', { storm_mode_enabled: true });
    const mean = (runs: Measured[], of: (run: Measured) => number) =>
      runs.reduce((sum, run) => sum + of(run), 0) / runs.length;
    const storedRate = mean(stored, (run) => run.requestsPerSecond);
    const openedRate = mean(opened, (run) => run.requestsPerSecond);
    const storedP99 = mean(stored, (run) => run.p99Ms);
    const openedP99 = mean(opened, (run) => run.p99Ms);
    const results: BenchResult[] = [
      { name: 'store-only single alerts (c=32)', value: storedRate, unit: 'req/s' },
      { name: '  latency p99', value: storedP99, unit: 'ms' },
      { name: 'incident-opening single alerts (c=32)', value: openedRate, unit: 'req/s' },
      { name: '  latency p99', value: openedP99, unit: 'ms' },
      {
        name: '  opening ÷ store-only throughput',
        value: openedRate / storedRate,
        unit: 'ratio',
        target: { op: '>=', value: 0.75 },
      },
      {
        name: '  opening ÷ store-only p99',
        value: openedP99 / storedP99,
        unit: 'ratio',
        target: { op: '<=', value: 2 },
      },
      { name: 'incident-opening, each paged (c=32)', value: paged.requestsPerSecond, unit: 'req/s' },
      { name: '  latency p99', value: paged.p99Ms, unit: 'ms' },
      // Where a request's machine time goes: on two shared cores, the ratio follows the CPU per request.
      ...(['PostgreSQL', 'server', 'load generator', 'rest'] as const).flatMap((part) => [
        { name: `CPU per stored request: ${part}`, value: mean(stored, (run) => run.cpu[part]), unit: 'ms' },
        { name: `CPU per opening request: ${part}`, value: mean(opened, (run) => run.cpu[part]), unit: 'ms' },
      ]),
      // The load's 32 keep-alive connections stay with the HTTP process they were handed to; the primary
      // hands them out in turn, so with two processes each share should be 0.5 (near 1: one served alone).
      {
        name: 'busiest HTTP process, stored',
        value: mean(stored, (run) => run.busiestShare),
        unit: 'of requests',
      },
      {
        name: 'busiest HTTP process, opening',
        value: mean(opened, (run) => run.busiestShare),
        unit: 'of requests',
      },
      // What a request writes to PostgreSQL's log. Each measurement starts just after a checkpoint, so the
      // first change to a page writes the whole page: scattered index inserts would show as full-page images.
      ...(['bytes', 'records', 'fullPageImages'] as const).flatMap((part) => [
        { name: 'WAL per stored request', value: mean(stored, (run) => run.wal[part]), unit: walUnit[part] },
        { name: 'WAL per opening request', value: mean(opened, (run) => run.wal[part]), unit: walUnit[part] },
      ]),
    ];
    return results;
  },
};
