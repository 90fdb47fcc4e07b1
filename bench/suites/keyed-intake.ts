import { randomUUID } from 'node:crypto';
import { settle } from '../lib/environment';
import { type LoadResult, load } from '../lib/load';
import type { BenchEnvironment, Benchmark } from '../lib/types';

const FIXED_PATH = '/api/v1/webhooks/generic';
const ROUNDS = 2;

const single = () =>
  JSON.stringify({
    alerts: [{ title: 'CPU high on web-1', severity: 'info', external_id: `k-${randomUUID()}` }],
  });

/** A generic integration made through the API, as an admin would: its intake URL is the keyed path. */
async function createGenericIntegration(env: BenchEnvironment): Promise<string> {
  const response = await fetch(`${env.url}/api/v1/integrations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench generic', type: 'generic' }),
  });
  if (response.status !== 201) throw new Error(`creating the integration: ${response.status}`);
  const { key } = (await response.json()) as { key: string };
  return `/api/v1/intake/${key}`;
}

async function measure(env: BenchEnvironment, path: string): Promise<LoadResult> {
  await settle(env.databaseUrl);
  const run = await load({
    url: `${env.url}${path}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    connections: 32,
    durationSeconds: 10,
    makeBody: single,
  });
  if (run.non2xx > 0 || run.errors > 0 || run.timeouts > 0) {
    throw new Error(`${path}: ${run.non2xx} non-2xx, ${run.errors} errors, ${run.timeouts} timeouts`);
  }
  return run;
}

/**
 * Keyed intake (`/api/v1/intake/{key}`: one key lookup more than the fixed path) against the fixed
 * generic path, same bodies, same load. The two alternate, and which goes first alternates by round,
 * so a drift of the machine's speed and the growth of the alerts table weigh on both alike; the
 * target is a ratio within this one run.
 */
export const keyedIntake: Benchmark = {
  name: 'keyed intake',
  async run(env) {
    const keyedPath = await createGenericIntegration(env);
    let fixed = 0;
    let keyed = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Every measurement adds its alerts to the table the next one writes to: odd rounds run keyed
      // first, so neither side always meets the bigger table.
      const keyedFirst = round % 2 === 1;
      if (keyedFirst) keyed += (await measure(env, keyedPath)).requestsPerSecond / ROUNDS;
      fixed += (await measure(env, FIXED_PATH)).requestsPerSecond / ROUNDS;
      if (!keyedFirst) keyed += (await measure(env, keyedPath)).requestsPerSecond / ROUNDS;
    }
    return [
      { name: 'fixed generic path, single unique alerts (c=32)', value: fixed, unit: 'req/s' },
      { name: 'keyed intake URL, same load', value: keyed, unit: 'req/s' },
      {
        name: '  keyed ÷ fixed throughput',
        value: keyed / fixed,
        unit: 'ratio',
        target: { op: '>=', value: 0.9 },
      },
    ];
  },
};
