// The failure drills short enough for every CI run (README.md#reliability-drills-pnpm-drill), with short
// parameters: the same scenario functions `pnpm drill` runs, each asserted to pass. The long ones (a 60 s
// Redis outage, PostgreSQL outage, Sentinel failover, worker killed mid-job) run only in `pnpm drill`.
import { describe, expect, it } from 'vitest';
import { runDrill } from './lib/harness';
import type { Drill, DrillResult } from './lib/types';
import { badInput } from './scenarios/bad-input';
import { fuzz } from './scenarios/fuzz';
import { heartbeats } from './scenarios/heartbeats';
import { redisOutage } from './scenarios/redis-outage';
import { sigtermUnderLoad } from './scenarios/sigterm-under-load';
import { twoReplicas } from './scenarios/two-replicas';

/** The result, with its numbers and reason in the failure message. */
async function passes<O>(drill: Drill<O>, options: Partial<O>): Promise<DrillResult> {
  const result = await runDrill(drill, options);
  expect(result, JSON.stringify(result, null, 2)).toMatchObject({ pass: true });
  return result;
}

describe('drills (short)', () => {
  it('bad input is answered with an error envelope each and nothing is stored', async () => {
    await passes(badInput, {});
  }, 150_000);

  it('fuzzed webhook payloads break no parser property and store nothing rejected', async () => {
    await passes(fuzz, { parserRuns: 500, httpRuns: 60 });
  }, 150_000);

  it('a short Redis outage under alert load loses nothing and catches up', async () => {
    await passes(redisOutage, { outageSeconds: 8, ratePerSecond: 1.5 });
  }, 150_000);

  it('two replicas page every escalation step once', async () => {
    await passes(twoReplicas, { incidents: 20, tierTimeoutSeconds: 2 });
  }, 150_000);

  it('SIGTERM under load answers every accepted request', async () => {
    await passes(sigtermUnderLoad, { connections: 8 });
  }, 150_000);

  it('heartbeats due while Redis restarts empty each raise one alert', async () => {
    await passes(heartbeats, { heartbeats: 10 });
  }, 150_000);
});
