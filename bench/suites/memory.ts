import { randomUUID } from 'node:crypto';
import { startEnvironment, treeRssMegabytes } from '../lib/environment';
import { load } from '../lib/load';
import type { BenchResult } from '../lib/types';

const SAMPLE_EVERY_MS = 250;

/**
 * The memory of `pnpm start` itself (tsx on the sources, every route and the worker in one process tree),
 * idle after start and at its peak while it takes alerts from 32 connections for 10 s. Sampled from /proc
 * during the load, not after it.
 */
export async function pnpmStartMemory(): Promise<BenchResult[]> {
  const env = await startEnvironment({ command: 'pnpm-start' });
  try {
    await new Promise((done) => setTimeout(done, 2000)); // start-up work (migrations, first jobs) done
    const idle = treeRssMegabytes(env.serverPid);
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, treeRssMegabytes(env.serverPid));
    }, SAMPLE_EVERY_MS);
    const run = await load({
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
    return [
      { name: '`pnpm start` RSS, idle', value: idle, unit: 'MiB', target: { op: '<=', value: 300 } },
      {
        name: '`pnpm start` RSS, peak under intake load',
        value: peak,
        unit: 'MiB',
        target: { op: '<=', value: 512 },
      },
      { name: '  intake during that load', value: run.requestsPerSecond, unit: 'req/s' },
    ];
  } finally {
    await env.stop();
  }
}
