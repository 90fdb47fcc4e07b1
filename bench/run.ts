// `pnpm bench`: every benchmark against a private PostgreSQL and Redis, one table, and JSON in
// bench/results/latest.json. Bounded in time; loopback only.
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { startEnvironment, treePssMegabytes, treeRssMegabytes } from './lib/environment';
import { printTable, writeJson } from './lib/report';
import type { Benchmark, BenchResult } from './lib/types';
import { analytics } from './suites/analytics';
import { apiBaseline } from './suites/api-baseline';
import { chatLatency } from './suites/chat-latency';
import { escalationSkew } from './suites/escalation';
import { incidentIntake } from './suites/incident-intake';
import { incidentList } from './suites/incident-list';
import { intake } from './suites/intake';
import { keyedIntake } from './suites/keyed-intake';
import { pnpmStartMemory } from './suites/memory';
import { replicasUnderLoad } from './suites/replicas';
import { storm } from './suites/storm';

const all: Benchmark[] = [
  apiBaseline,
  intake,
  keyedIntake,
  incidentIntake,
  incidentList,
  escalationSkew,
  chatLatency,
  storm,
  analytics,
];
// `pnpm bench keyed` runs only the suites whose name contains one of the words given (and skips the
// pnpm-start memory run and the replicas run unless a word is `memory` or `replicas`): a quicker look at
// one number. With no words, everything runs.
const only = process.argv.slice(2).map((word) => word.toLowerCase());
const benchmarks = only.length
  ? all.filter((benchmark) => only.some((word) => benchmark.name.includes(word)))
  : all;

const results: BenchResult[] = [];
// `pnpm bench replicas` (or memory) alone needs no bundle of its own.
if (benchmarks.length > 0) results.push(...(await bundleBenchmarks()));

async function bundleBenchmarks(): Promise<BenchResult[]> {
  const env = await startEnvironment();
  const measured: BenchResult[] = [];
  try {
    // The tree: the bundle serves HTTP from forked processes too (HTTP_PROCESSES). PSS counts their
    // shared pages once and carries the target; RSS counts them once per process.
    measured.push(
      {
        name: 'bundle PSS, idle after start',
        value: treePssMegabytes(env.serverPid),
        unit: 'MiB',
        target: { op: '<=', value: 300 },
      },
      { name: 'bundle RSS, idle after start', value: treeRssMegabytes(env.serverPid), unit: 'MiB' },
    );
    for (const benchmark of benchmarks) {
      process.stderr.write(`running ${benchmark.name}…\n`);
      measured.push(...(await benchmark.run(env)));
    }
    measured.push(
      { name: 'bundle PSS after the load', value: treePssMegabytes(env.serverPid), unit: 'MiB' },
      { name: 'bundle RSS after the load', value: treeRssMegabytes(env.serverPid), unit: 'MiB' },
    );
  } finally {
    await env.stop();
  }
  return measured;
}
if (only.length === 0 || only.includes('replicas')) {
  process.stderr.write('running replicas under load…\n');
  results.push(...(await replicasUnderLoad()));
}
if (only.length === 0 || only.includes('memory')) {
  process.stderr.write('running pnpm-start memory…\n');
  results.push(...(await pnpmStartMemory()));
}
console.log('');
printTable(results);
const file = writeJson(resolve(import.meta.dirname, 'results'), results, {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  memory_gib: Math.round(totalmem() / 2 ** 30),
});
console.log(`\nwritten to ${file}`);
