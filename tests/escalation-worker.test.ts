// The worker end to end on real PostgreSQL and Redis: outbox relay, wake-up jobs, the reconciler, and
// what happens when Redis goes away or comes back empty (docs/architecture.md#timers-are-rows,
// docs/architecture.md#degraded-operation).
import { createTestRuntime, type TestRuntime } from '@firebreak/runtime/testing';
import { createIncident } from '@firebreak/services';
import { PrivateRedis, waitFor } from '@firebreak/testing';
import { type RunningWorker, startWorker } from '@firebreak/worker';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultTwoTierPolicy, firedSteps } from './support/escalation';

const actor = { type: 'user' as const, name: 'tester' };
let runtime: TestRuntime | undefined;
let worker: RunningWorker | undefined;
let redis: PrivateRedis | undefined;

afterEach(async () => {
  await worker?.stop();
  await runtime?.cleanup();
  await redis?.destroy();
  worker = runtime = redis = undefined;
});

async function pendingOutbox(rt: TestRuntime): Promise<number> {
  const [row] = await rt.sql<{ n: number }[]>`select count(*)::int as n from outbox where sent_at is null`;
  return row!.n;
}

describe('escalation worker', () => {
  it('relays the outbox and fires tier 1 at once and tier 2 at its deadline', async () => {
    runtime = await createTestRuntime();
    await defaultTwoTierPolicy(runtime.ctx, 1);
    worker = await startWorker(runtime.ctx, {
      redis: runtime.redisConfig,
      ai: runtime.config.ai,
      intervalMs: 5000,
    });
    const started = Date.now();
    const incident = await createIncident(runtime.ctx, actor, {
      title: 'Checkout down',
      severity: 'critical',
    });
    await waitFor(async () => (await firedSteps(runtime!.ctx, incident.id)).length === 1, { what: 'tier 1' });
    // Woken at its deadline by the reconciler's alarm, not by its (5 s) poll.
    await waitFor(async () => (await firedSteps(runtime!.ctx, incident.id)).length === 2, {
      what: 'tier 2',
      timeoutMs: 4000,
    });
    expect(Date.now() - started).toBeLessThan(4500);
    expect(await firedSteps(runtime.ctx, incident.id)).toEqual(['tier 1: First', 'tier 2: Second']);
    // Tier 2's chat notice was written a moment ago; the relay picks it up on its notification.
    await waitFor(async () => (await pendingOutbox(runtime!)) === 0, { what: 'relay of the tier-2 notice' });
    const depths = await worker.queues.depths();
    // The chat jobs (open channel, two notices) wait for the chat adapter.
    expect(depths.chat.waiting).toBeGreaterThanOrEqual(3);
    const metrics = await runtime.ctx.metrics.registry.metrics();
    expect(metrics).toContain('firebreak_escalations_fired_total 2');
    expect(metrics).toMatch(/firebreak_queue_jobs\{queue="chat",state="waiting"\} [3-9]/);
  });

  it('sets aside an outbox row no worker could run, and relays the rows behind it', async () => {
    runtime = await createTestRuntime();
    worker = await startWorker(runtime.ctx, {
      redis: runtime.redisConfig,
      ai: runtime.config.ai,
      intervalMs: 5000,
    });
    await worker.tick();
    await runtime.sql`insert into outbox (job_name, payload) values ('chat.open_channel', ${runtime.sql.json({ incident_id: 'not-a-uuid' })})`;
    const incident = await createIncident(runtime.ctx, actor, { title: 'Behind a bad row', severity: 'low' });
    await worker.tick();
    expect(await pendingOutbox(runtime)).toBe(0);
    const [bad] = await runtime.sql<{ last_error: string | null }[]>`
      select last_error from outbox where payload->>'incident_id' = 'not-a-uuid'`;
    expect(bad!.last_error).toMatch(/uuid/i);
    expect(runtime.logs.messages()).toContain('outbox row cannot be relayed');
    void incident;
  });

  it('keeps the API working while Redis is down and delivers everything after it returns, unprompted', async () => {
    redis = await PrivateRedis.start({ appendOnly: true });
    runtime = await createTestRuntime({ redisUrl: redis.url });
    await defaultTwoTierPolicy(runtime.ctx, 1);
    worker = await startWorker(runtime.ctx, {
      redis: runtime.redisConfig,
      ai: runtime.config.ai,
      intervalMs: 200,
    });
    await redis.kill();

    const incident = await createIncident(runtime.ctx, actor, {
      title: 'During the outage',
      severity: 'high',
    });
    expect(incident.status).toBe('triggered');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await pendingOutbox(runtime)).toBeGreaterThan(0);

    await redis.start();
    await waitFor(async () => (await pendingOutbox(runtime!)) === 0, {
      timeoutMs: 30_000,
      what: 'relay after recovery',
    });
    await waitFor(async () => (await firedSteps(runtime!.ctx, incident.id)).length === 2, {
      timeoutMs: 30_000,
      what: 'both tiers',
    });
    // The tier-2 notice's outbox row commits with the step, then waits for the relay's next pass.
    await waitFor(async () => (await pendingOutbox(runtime!)) === 0, { what: 'relay of the tier-2 notice' });
    const depths = await worker.queues.depths();
    expect(depths.chat.waiting).toBeGreaterThanOrEqual(3);
    expect(runtime.logs.messages()).toContain('outbox relay: waiting for the queue');
  }, 60_000);

  it('fires due escalations through the reconciler when Redis comes back empty', async () => {
    redis = await PrivateRedis.start({ appendOnly: false });
    runtime = await createTestRuntime({ redisUrl: redis.url });
    await defaultTwoTierPolicy(runtime.ctx, 2);
    worker = await startWorker(runtime.ctx, {
      redis: runtime.redisConfig,
      ai: runtime.config.ai,
      intervalMs: 300,
    });
    const incident = await createIncident(runtime.ctx, actor, { title: 'Before the wipe', severity: 'high' });
    await waitFor(async () => (await firedSteps(runtime!.ctx, incident.id)).length === 1, { what: 'tier 1' });

    // The delayed wake-up for tier 2 lives in Redis; a restart without persistence loses it.
    await redis.kill();
    await redis.start();
    await waitFor(async () => (await firedSteps(runtime!.ctx, incident.id)).length === 2, {
      timeoutMs: 15_000,
      what: 'tier 2 after the wipe',
    });
    expect(await firedSteps(runtime.ctx, incident.id)).toEqual(['tier 1: First', 'tier 2: Second']);
  }, 40_000);
});
