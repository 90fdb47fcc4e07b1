import { randomUUID } from 'node:crypto';
import {
  childrenOf,
  type EnvironmentOptions,
  pssMegabytes,
  startEnvironment,
  treePssMegabytes,
  treeRssMegabytes,
} from '../lib/environment';
import { load } from '../lib/load';
import type { BenchResult } from '../lib/types';

const SAMPLE_EVERY_MS = 250;
const IDLE_TARGET_MIB = 300;
const PEAK_TARGET_MIB = 512;

interface Run {
  label: string;
  command: EnvironmentOptions['command'];
  env?: Record<string, string>;
  /** Also measure the peak while it takes alerts (the start-up comparison needs only the idle tree). */
  underLoad: boolean;
}

/**
 * The memory of `pnpm start` itself, its whole process tree: idle after start and at its peak while it
 * takes alerts from 32 connections for 10 s, sampled from /proc during the load, not after it. PSS is the
 * honest total (RSS counts the node binary's and the bundle's shared pages once per process) and carries
 * the targets; RSS is kept beside it for comparison with older runs. The default (a primary and
 * HTTP_PROCESSES HTTP processes) and everything in one process, idle and under load; idle only, what
 * source-mapped stack traces cost and what `pnpm start:src` (tsx) costs.
 */
export async function pnpmStartMemory(): Promise<BenchResult[]> {
  const runs: Run[] = [
    { label: '`pnpm start`', command: 'pnpm-start', underLoad: true },
    {
      label: '`pnpm start` HTTP_PROCESSES=1',
      command: 'pnpm-start',
      env: { HTTP_PROCESSES: '1' },
      underLoad: true,
    },
    {
      label: '`pnpm start` with source maps',
      command: 'pnpm-start',
      env: { NODE_OPTIONS: '--enable-source-maps' },
      underLoad: false,
    },
    { label: '`pnpm start:src` (tsx)', command: 'sources', underLoad: false },
  ];
  const results: BenchResult[] = [];
  for (const run of runs) {
    process.stderr.write(`  ${run.label}…\n`);
    results.push(...(await measure(run)));
  }
  return results;
}

async function measure(run: Run): Promise<BenchResult[]> {
  const env = await startEnvironment({ command: run.command, env: run.env });
  try {
    await new Promise((done) => setTimeout(done, 2000)); // start-up work (migrations, first jobs) done
    const idle = { rss: treeRssMegabytes(env.serverPid), pss: treePssMegabytes(env.serverPid) };
    const results: BenchResult[] = [
      {
        name: `${run.label} PSS, idle`,
        value: idle.pss,
        unit: 'MiB',
        target: { op: '<=', value: IDLE_TARGET_MIB },
      },
      { name: `${run.label} RSS, idle`, value: idle.rss, unit: 'MiB' },
      // Under tsx the tree starts with the tsx launcher, whose child is the primary.
      ...(run.command === 'sources' ? [] : perProcess(run.label, env.serverPid)),
    ];
    if (!run.underLoad) return results;
    const peak = { ...idle };
    const sampler = setInterval(() => {
      peak.rss = Math.max(peak.rss, treeRssMegabytes(env.serverPid));
      peak.pss = Math.max(peak.pss, treePssMegabytes(env.serverPid));
    }, SAMPLE_EVERY_MS);
    const intake = await load({
      url: `${env.url}/api/v1/webhooks/generic`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      makeBody: () =>
        JSON.stringify({
          alerts: [{ title: 'CPU high on web-1', severity: 'info', external_id: randomUUID() }],
        }),
      connections: 32,
      durationSeconds: 10,
    }).finally(() => clearInterval(sampler));
    results.push(
      {
        name: `${run.label} PSS, peak under intake load`,
        value: peak.pss,
        unit: 'MiB',
        target: { op: '<=', value: PEAK_TARGET_MIB },
      },
      { name: `${run.label} RSS, peak under intake load`, value: peak.rss, unit: 'MiB' },
      { name: `  ${run.label} intake during that load`, value: intake.requestsPerSecond, unit: 'req/s' },
    );
    return results;
  } finally {
    await env.stop();
  }
}

/** The idle budget per process: the primary's own PSS and each HTTP process's (none with HTTP_PROCESSES=1). */
function perProcess(label: string, primaryPid: number): BenchResult[] {
  const httpProcesses = childrenOf(primaryPid);
  const primary: BenchResult = {
    name: `  ${label} primary PSS, idle`,
    value: pssMegabytes(primaryPid),
    unit: 'MiB',
  };
  if (httpProcesses.length === 0) return [primary];
  const each = httpProcesses.map((pid) => treePssMegabytes(pid));
  return [
    primary,
    {
      name: `  ${label} per HTTP process PSS, idle (${httpProcesses.length} processes)`,
      value: each.reduce((sum, value) => sum + value, 0) / each.length,
      unit: 'MiB',
    },
  ];
}
