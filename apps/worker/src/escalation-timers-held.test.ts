// The reconciler when due steps are held by other transactions
// (docs/decisions.md#escalation-timers-under-load): a storm's intake handing its incident's row lock
// from one transaction to the next, and an escalation held past its deadline while another falls due.
import { createTestRuntime, createTestUser, type TestRuntime } from '@firebreak/runtime/testing';
import { CreateEscalationPolicyInput } from '@firebreak/schema';
import { createEscalationPolicy, createIncident, setDefaultEscalationPolicy } from '@firebreak/services';
import { waitFor } from '@firebreak/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningReconciler, startEscalationReconciler } from './escalation-timers';

let runtime: TestRuntime | undefined;
let reconciler: RunningReconciler | undefined;
let release: (() => Promise<void>) | undefined;
afterEach(async () => {
  await release?.();
  await reconciler?.stop();
  await runtime?.cleanup();
  reconciler = runtime = release = undefined;
});

async function setUp(timeoutSeconds: number) {
  // The lock holders below take connections of their own.
  const rt = await createTestRuntime({ env: { DB_MAX_OPEN_CONNS: '12' } });
  runtime = rt;
  const person = await createTestUser(rt, 'member', 'First');
  const policy = await createEscalationPolicy(
    rt.ctx,
    CreateEscalationPolicyInput.parse({
      name: 'Two tiers',
      tiers: [1, 2].map(() => ({
        target_type: 'users',
        user_ids: [person.id],
        timeout_seconds: timeoutSeconds,
      })),
    }),
  );
  await setDefaultEscalationPolicy(rt.ctx, policy.id);
  // A poll of a minute: only the alarm can fire these in time.
  reconciler = await startEscalationReconciler(rt.ctx, 60_000);
  const open = async (title: string) => {
    const incident = await createIncident(
      rt.ctx,
      { type: 'user', name: 'tester' },
      { title, severity: 'critical' },
    );
    await waitFor(async () => (await tiersFired(rt, incident.id)) === 1, { what: `tier 1 of ${title}` });
    return incident;
  };
  return { rt, open };
}

async function tiersFired(rt: TestRuntime, incidentId: string): Promise<number> {
  const rows = await rt.sql`select 1 from escalation_steps where incident_id = ${incidentId}`;
  return rows.length;
}

async function dueAt(rt: TestRuntime, incidentId: string): Promise<Date> {
  const [row] = await rt.sql<{ next_due_at: Date }[]>`
    select next_due_at from incident_escalations where incident_id = ${incidentId}`;
  return row!.next_due_at;
}

/**
 * Holds the incident's row the way a storm's intake does: short `for update` transactions back to
 * back from several connections, each waiting for the one before, so the row is never free.
 */
function holdLikeAStorm(rt: TestRuntime, incidentId: string): () => Promise<void> {
  let stopped = false;
  const loops = [1, 2, 3].map(async () => {
    while (!stopped) {
      await rt.sql.begin(async (tx) => {
        await tx`select id from incidents where id = ${incidentId} for update`;
        await tx`select pg_sleep(0.02)`;
      });
    }
  });
  return async () => {
    stopped = true;
    await Promise.all(loops);
  };
}

/** Holds the incident's row in one transaction until the returned function is called. */
async function holdUntilReleased(rt: TestRuntime, incidentId: string): Promise<() => Promise<void>> {
  let unblock!: () => void;
  const blocked = new Promise<void>((resolve) => {
    unblock = resolve;
  });
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const holder = rt.sql.begin(async (tx) => {
    await tx`select id from incidents where id = ${incidentId} for update`;
    locked();
    await blocked;
  });
  await isLocked;
  return async () => {
    unblock();
    await holder;
  };
}

describe('escalation reconciler with held escalations', () => {
  it('fires a step whose incident a storm keeps locked, by waiting its turn for the lock', async () => {
    const { rt, open } = await setUp(1);
    const storm = await open('Storm');
    release = holdLikeAStorm(rt, storm.id);
    const due = await dueAt(rt, storm.id);
    // Skipping the row, pass after pass, would never fire it while the storm lasts.
    await waitFor(async () => (await tiersFired(rt, storm.id)) === 2, {
      timeoutMs: Math.max(due.getTime() + 2000 - Date.now(), 0),
      intervalMs: 20,
      what: 'tier 2 of the storm within 2 s of its deadline',
    });
    await release();
    release = undefined;
  });

  it('wakes for the next deadline while an earlier one stays held', async () => {
    const { rt, open } = await setUp(600);
    const [held, next] = [await open('Held'), await open('Next')];
    release = await holdUntilReleased(rt, held.id);
    // The held one falls due first; the reconciler backs off on it, doubling: 25, 50, 100… ms.
    await rt.sql`
      update incident_escalations set next_due_at = now() + interval '100 milliseconds'
      where incident_id = ${held.id}`;
    await rt.sql`
      update incident_escalations set next_due_at = now() + interval '3400 milliseconds'
      where incident_id = ${next.id}`;
    await reconciler!.runOnce();
    await waitFor(async () => (await tiersFired(rt, next.id)) === 2, { timeoutMs: 8000, what: 'next' });
    const [step] = await rt.sql<{ late_ms: number }[]>`
      select extract(epoch from fired_at - due_at) * 1000 as late_ms
      from escalation_steps where incident_id = ${next.id} and tier = 1`;
    // Waiting out the backoff (wakes at 125, 175, 275, 475, 875, 1 675, 3 275, 6 475 ms) would fire it
    // about 3 s late; the bound leaves a busy machine half of that.
    expect(Number(step!.late_ms)).toBeLessThanOrEqual(1500);
    expect(await tiersFired(rt, held.id)).toBe(1);
  });
});
