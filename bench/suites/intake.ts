import { randomUUID } from 'node:crypto';
import { settle } from '../lib/environment';
import { load } from '../lib/load';
import type { Benchmark, BenchResult } from '../lib/types';

const path = '/api/v1/webhooks/generic';

/**
 * Issue 4: alert intake on the real database. "unique" bodies carry fresh external_ids on every
 * request; "repeating" bodies reuse the same external_ids, which is what Alertmanager's re-sends look like. Severity `info` keeps the
 * default rule from opening an incident per alert: the benchmark measures intake, not incident creation.
 */
export const intake: Benchmark = {
  name: 'alert intake',
  async run(env) {
    const url = `${env.url}${path}`;
    const headers = { 'content-type': 'application/json' };
    const results: BenchResult[] = [];
    const single = (externalId: string) =>
      JSON.stringify({
        alerts: [
          {
            title: 'CPU high on web-1',
            severity: 'info',
            external_id: externalId,
            labels: { host: 'web-1' },
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

    const check = (name: string, run: Awaited<ReturnType<typeof load>>) => {
      if (run.non2xx > 0 || run.errors > 0)
        throw new Error(`${name}: ${run.non2xx} non-2xx, ${run.errors} errors`);
    };

    await settle(env.databaseUrl);
    const uniqueSingle = await load({
      url,
      method: 'POST',
      headers,
      makeBody: () => single(`u-${randomUUID()}`),
      connections: 32,
      durationSeconds: 10,
    });
    check('single unique', uniqueSingle);
    results.push(
      {
        name: 'single-alert requests, unique ids (c=32)',
        value: uniqueSingle.requestsPerSecond,
        unit: 'req/s',
        target: { op: '>=', value: 1500 },
      },
      { name: '  latency p50', value: uniqueSingle.p50Ms, unit: 'ms' },
      { name: '  latency p99', value: uniqueSingle.p99Ms, unit: 'ms' },
    );

    await settle(env.databaseUrl);
    const repeatSingle = await load({
      url,
      method: 'POST',
      headers,
      body: single('repeat-1'),
      connections: 32,
      durationSeconds: 10,
    });
    check('single repeating', repeatSingle);
    results.push({
      name: 'single-alert requests, repeating id (c=32)',
      value: repeatSingle.requestsPerSecond,
      unit: 'req/s',
      target: { op: '>=', value: 1500 },
    });

    // The worst case, for the record: every delivery changes the same alert, so all 32 connections
    // queue on one row lock.
    await settle(env.databaseUrl);
    let revision = 0;
    const contended = await load({
      url,
      method: 'POST',
      headers,
      makeBody: () =>
        JSON.stringify({
          alerts: [
            {
              title: 'CPU high on web-1',
              severity: 'info',
              external_id: 'contended',
              description: `revision ${++revision}`,
            },
          ],
        }),
      connections: 32,
      durationSeconds: 10,
    });
    check('single contended', contended);
    results.push({
      name: 'single-alert, one id changing every time (c=32)',
      value: contended.requestsPerSecond,
      unit: 'req/s',
    });

    await settle(env.databaseUrl);
    const uniqueBatch = await load({
      url,
      method: 'POST',
      headers,
      makeBody: () => batch(`b-${randomUUID()}`),
      connections: 32,
      durationSeconds: 10,
    });
    check('batch unique', uniqueBatch);
    results.push(
      {
        name: '100-alert batches, unique ids (c=32)',
        value: uniqueBatch.requestsPerSecond * 100,
        unit: 'alerts/s',
        target: { op: '>=', value: 10_000 },
      },
      { name: '  latency p50', value: uniqueBatch.p50Ms, unit: 'ms' },
      { name: '  latency p99', value: uniqueBatch.p99Ms, unit: 'ms' },
    );

    await settle(env.databaseUrl);
    const repeatBatch = await load({
      url,
      method: 'POST',
      headers,
      body: batch('same'),
      connections: 32,
      durationSeconds: 10,
    });
    check('batch repeating', repeatBatch);
    results.push(
      {
        name: '100-alert batches, repeating ids (c=32)',
        value: repeatBatch.requestsPerSecond * 100,
        unit: 'alerts/s',
        target: { op: '>=', value: 10_000 },
      },
      { name: '  latency p50', value: repeatBatch.p50Ms, unit: 'ms' },
      { name: '  latency p99', value: repeatBatch.p99Ms, unit: 'ms' },
    );

    await settle(env.databaseUrl);
    const paced = await load({
      url,
      method: 'POST',
      headers,
      makeBody: () => single(`p-${randomUUID()}`),
      connections: 16,
      overallRate: 500,
      durationSeconds: 10,
    });
    check('paced', paced);
    results.push({
      name: 'single-alert p99 at 500 req/s',
      value: paced.p99Ms,
      unit: 'ms',
      target: { op: '<=', value: 50 },
    });
    return results;
  },
};
