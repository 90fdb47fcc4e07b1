import { randomUUID } from 'node:crypto';
import { settle } from '../lib/environment';
import { type LoadOptions, type LoadResult, load } from '../lib/load';
import type { BenchEnvironment, Benchmark, BenchResult } from '../lib/types';

const path = '/api/v1/webhooks/generic';

const single = (externalId: string, description?: string) =>
  JSON.stringify({
    alerts: [
      {
        title: 'CPU high on web-1',
        severity: 'info',
        external_id: externalId,
        labels: { host: 'web-1' },
        description,
      },
    ],
  });

const batch = (prefix: string) =>
  JSON.stringify({
    alerts: Array.from({ length: 100 }, (_, i) => ({
      title: `Disk full on node-${i}`,
      severity: 'info',
      external_id: `${prefix}-${i}`,
      labels: { host: `node-${i}`, team: 'storage' },
    })),
  });

/** One measurement: the database settled first, every request answered 2xx or the run fails. */
async function measure(
  env: BenchEnvironment,
  name: string,
  options: Partial<LoadOptions>,
): Promise<LoadResult> {
  await settle(env.databaseUrl);
  const run = await load({
    url: `${env.url}${path}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    connections: 32,
    durationSeconds: 10,
    ...options,
  });
  if (run.non2xx > 0 || run.errors > 0 || run.timeouts > 0) {
    throw new Error(
      `${name}: ${run.non2xx} non-2xx, ${run.errors} errors, ${run.timeouts} timeouts of ${run.total}`,
    );
  }
  return run;
}

const latency = (run: LoadResult): BenchResult[] => [
  { name: '  latency p50', value: run.p50Ms, unit: 'ms' },
  { name: '  latency p99', value: run.p99Ms, unit: 'ms' },
];

/**
 * Alert intake throughput on the real database. "Unique" bodies carry fresh external_ids on every
 * request; "repeating" bodies re-send the same alerts unchanged, which is what Alertmanager's re-sends
 * look like. Severity `info` keeps the default rule from opening an incident per alert: the benchmark
 * measures intake, not incident creation.
 */
export const intake: Benchmark = {
  name: 'alert intake',
  async run(env) {
    const atLeast = (value: number) => ({ op: '>=' as const, value });

    const uniqueSingle = await measure(env, 'single unique', { makeBody: () => single(`u-${randomUUID()}`) });
    const repeatSingle = await measure(env, 'single repeating', { body: single('repeat-1') });
    // The worst case, for the record: every delivery changes the same alert, so all 32 connections
    // queue on one row lock.
    let revision = 0;
    const contended = await measure(env, 'single contended', {
      makeBody: () => single('contended', `revision ${++revision}`),
    });
    const uniqueBatch = await measure(env, 'batch unique', { makeBody: () => batch(`b-${randomUUID()}`) });
    const repeatBatch = await measure(env, 'batch repeating', { body: batch('same') });
    const paced = await measure(env, 'paced', {
      makeBody: () => single(`p-${randomUUID()}`),
      connections: 16,
      overallRate: 500,
    });

    return [
      {
        name: 'single-alert requests, unique ids (c=32)',
        value: uniqueSingle.requestsPerSecond,
        unit: 'req/s',
        target: atLeast(1500),
      },
      ...latency(uniqueSingle),
      {
        name: 'single-alert requests, repeating id (c=32)',
        value: repeatSingle.requestsPerSecond,
        unit: 'req/s',
        target: atLeast(1500),
      },
      {
        name: 'single-alert, one id changing every time (c=32)',
        value: contended.requestsPerSecond,
        unit: 'req/s',
      },
      {
        name: '100-alert batches, unique ids (c=32)',
        value: uniqueBatch.requestsPerSecond * 100,
        unit: 'alerts/s',
        target: atLeast(10_000),
      },
      ...latency(uniqueBatch),
      {
        name: '100-alert batches, repeating ids (c=32)',
        value: repeatBatch.requestsPerSecond * 100,
        unit: 'alerts/s',
        target: atLeast(10_000),
      },
      ...latency(repeatBatch),
      {
        // The run starts with new alerts: 32 senders deliver the same new batch at once (as an
        // Alertmanager cluster's replicas do), all but one find it inserted under them and lock it.
        name: '  slowest answer (the first deliveries insert)',
        value: repeatBatch.maxMs,
        unit: 'ms',
        target: { op: '<=', value: 2000 },
      },
      {
        name: 'single-alert p99 at 500 req/s',
        value: paced.p99Ms,
        unit: 'ms',
        target: { op: '<=', value: 50 },
      },
    ];
  },
};
