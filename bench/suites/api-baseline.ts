import { settle } from '../lib/environment';
import { load } from '../lib/load';
import type { Benchmark, BenchResult } from '../lib/types';

/**
 * The floor every API request stands on: routing, the request log line, and token authentication
 * (an API-key digest looked up in PostgreSQL). Later benchmarks (intake, incident list) add their
 * own work on top of this.
 */
export const apiBaseline: Benchmark = {
  name: 'api baseline',
  async run(env) {
    const keyRes = await fetch(`${env.url}/api/v1/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench', role: 'viewer' }),
    });
    const { token } = (await keyRes.json()) as { token: string };
    const results: BenchResult[] = [];

    const health = await load({ url: `${env.url}/health`, connections: 32, durationSeconds: 10 });
    results.push({ name: 'GET /health throughput (c=32)', value: health.requestsPerSecond, unit: 'req/s' });

    const authed = await load({
      url: `${env.url}/api/v1/auth/me`,
      headers: { authorization: `Bearer ${token}` },
      connections: 32,
      durationSeconds: 10,
    });
    if (authed.non2xx > 0 || authed.errors + authed.timeouts > 0)
      throw new Error(`auth/me failed ${authed.non2xx + authed.errors + authed.timeouts} times`);
    results.push({
      name: 'authenticated GET throughput (c=32)',
      value: authed.requestsPerSecond,
      unit: 'req/s',
    });

    await settle(env.databaseUrl);
    const paced = await load({
      url: `${env.url}/api/v1/auth/me`,
      headers: { authorization: `Bearer ${token}` },
      connections: 16,
      overallRate: 500,
      durationSeconds: 10,
    });
    results.push({
      name: 'authenticated GET p99 at 500 req/s',
      value: paced.p99Ms,
      unit: 'ms',
      target: { op: '<=', value: 20 },
    });
    return results;
  },
};
