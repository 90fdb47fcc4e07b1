// The reconciler fires each step at its deadline from PostgreSQL alone (docs/architecture.md#timers-are-rows,
// docs/decisions.md#escalation-timers-under-load): no Redis, no wake-up job, and a poll far longer than
// the tier timeout.
import { createTestRuntime, createTestUser, type TestRuntime } from '@firebreak/runtime/testing';
import { CreateEscalationPolicyInput } from '@firebreak/schema';
import { createEscalationPolicy, createIncident, setDefaultEscalationPolicy } from '@firebreak/services';
import { waitFor } from '@firebreak/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningReconciler, startEscalationReconciler } from './escalation-timers';

let runtime: TestRuntime | undefined;
let reconciler: RunningReconciler | undefined;
afterEach(async () => {
  await reconciler?.stop();
  await runtime?.cleanup();
  reconciler = runtime = undefined;
});

async function firedTiers(rt: TestRuntime, incidentId: string): Promise<number[]> {
  const rows = await rt.sql<{ tier: number }[]>`
    select tier from escalation_steps where incident_id = ${incidentId} order by tier`;
  return rows.map((row) => row.tier + 1);
}

describe('escalation reconciler', () => {
  it('fires tier 1 when the opening commits and tier 2 at its deadline, without polling', async () => {
    runtime = await createTestRuntime();
    const person = await createTestUser(runtime, 'member', 'First');
    const policy = await createEscalationPolicy(
      runtime.ctx,
      CreateEscalationPolicyInput.parse({
        name: 'Two short tiers',
        tiers: [1, 2].map(() => ({ target_type: 'users', user_ids: [person.id], timeout_seconds: 1 })),
      }),
    );
    await setDefaultEscalationPolicy(runtime.ctx, policy.id);
    // A poll of a minute: only the opening's wake and the alarm at the deadline can fire these in time.
    reconciler = await startEscalationReconciler(runtime.ctx, 60_000);
    await reconciler.runOnce();

    const incident = await createIncident(
      runtime.ctx,
      { type: 'user', name: 'tester' },
      {
        title: 'Checkout down',
        severity: 'critical',
      },
    );
    await waitFor(async () => (await firedTiers(runtime!, incident.id)).length === 1, {
      timeoutMs: 5000,
      what: 'tier 1',
    });
    await waitFor(async () => (await firedTiers(runtime!, incident.id)).length === 2, {
      timeoutMs: 5000,
      what: 'tier 2',
    });
    expect(await firedTiers(runtime, incident.id)).toEqual([1, 2]);
    // At its deadline, not merely within the wait above: the step records how late it fired.
    const [tier2] = await runtime.sql<{ late_ms: number }[]>`
      select extract(epoch from fired_at - due_at) * 1000 as late_ms
      from escalation_steps where incident_id = ${incident.id} and tier = 1`;
    expect(Number(tier2!.late_ms)).toBeLessThanOrEqual(1000);
  });
});
