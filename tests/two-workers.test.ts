// Any number of worker replicas page each target once (docs/architecture.md#timers-are-rows). Two real
// worker processes share one database and one Redis; every escalation step must be notified exactly once
// between them.
import { resolve } from 'node:path';
import { createTestRuntime, type TestRuntime } from '@firebreak/runtime/testing';
import { createIncident } from '@firebreak/services';
import { getFreePort, PrivateRedis, type RunningProcess, startProcess, waitFor } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultTwoTierPolicy, firedSteps } from './support/escalation';

const repoRoot = resolve(import.meta.dirname, '..');
let redis: PrivateRedis;
let runtime: TestRuntime;
const workers: RunningProcess[] = [];

async function startWorkerProcess(): Promise<RunningProcess> {
  const started = startProcess(resolve(repoRoot, 'node_modules/.bin/tsx'), ['apps/worker/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(await getFreePort()),
      DATABASE_URL: runtime.db.url,
      REDIS_URL: redis.url,
    },
  });
  await started.waitForOutput('"msg":"worker listening"');
  return started;
}

beforeAll(async () => {
  redis = await PrivateRedis.start();
  runtime = await createTestRuntime({ redisUrl: redis.url });
  await defaultTwoTierPolicy(runtime.ctx, 1);
  workers.push(await startWorkerProcess(), await startWorkerProcess());
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await runtime.cleanup();
  await redis.destroy();
});

describe('two worker processes', () => {
  it('notify every step of every escalation exactly once, also when one is shut down midway', async () => {
    const actor = { type: 'user' as const, name: 'tester' };
    const incidents = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        createIncident(runtime.ctx, actor, { title: `Storm ${i}`, severity: 'high' }),
      ),
    );
    // As soon as every tier 1 has fired, one worker is shut down (SIGTERM) while the tier-2 deadlines
    // are a second away: it must exit cleanly, and the other must fire every tier 2 alone.
    for (const incident of incidents) {
      await waitFor(async () => (await firedSteps(runtime.ctx, incident.id)).length >= 1, {
        timeoutMs: 20_000,
        what: `tier 1 of ${incident.title}`,
      });
    }
    expect(await workers[0]!.stop('SIGTERM')).toBe(0);
    expect(workers[0]!.output()).toContain('"msg":"stopped"');
    for (const incident of incidents) {
      await waitFor(async () => (await firedSteps(runtime.ctx, incident.id)).length >= 2, {
        timeoutMs: 20_000,
        what: `both tiers of ${incident.title}`,
      });
    }
    // Let any late or duplicate wake-up run before counting.
    await new Promise((done) => setTimeout(done, 2500));
    for (const incident of incidents) {
      expect(await firedSteps(runtime.ctx, incident.id)).toEqual(['tier 1: First', 'tier 2: Second']);
    }
    const notices =
      await runtime.sql`select count(*)::int as n from outbox where job_name = 'chat.escalation_notice'`;
    expect(notices[0]!.n).toBe(40);
    const fired = workers.map((w) => (w.output().match(/"msg":"escalation_triggered"/g) ?? []).length);
    expect(fired[0]! + fired[1]!).toBe(40);
  }, 60_000);
});
