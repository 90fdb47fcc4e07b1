import { escalations, users } from '@firebreak/db';
import { CreateEscalationPolicyInput } from '@firebreak/schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIncident } from '../incidents/create';
import { updateIncident } from '../incidents/update';
import { createEscalationPolicy } from '../oncall/create-escalation-policy';
import { setDefaultEscalationPolicy } from '../settings/default-policy';
import { createTestContext, type TestContext } from '../testing/context';
import { runDueEscalations } from './run';

// The reconciler's batches (docs/decisions.md#escalation-timers-under-load): many steps per
// transaction, rows held elsewhere skipped rather than waited for, each step once.
let t: TestContext;
let clock: Date;
const user = { type: 'user' as const, name: 'tester' };

beforeEach(async () => {
  t = await createTestContext();
  clock = new Date('2026-11-21T10:00:00.000Z');
  t.ctx.now = () => clock;
  const [alice, bob] = await Promise.all(
    ['Alice', 'Bob'].map((name) =>
      users.insertUser(t.ctx.sql, { email: `${name}@example.test`, name, role: 'member' }),
    ),
  );
  const policy = await createEscalationPolicy(
    t.ctx,
    CreateEscalationPolicyInput.parse({
      name: 'Two tiers',
      tiers: [
        { target_type: 'users', user_ids: [alice!.id], timeout_seconds: 60 },
        { target_type: 'users', user_ids: [bob!.id], timeout_seconds: 60 },
      ],
    }),
  );
  await setDefaultEscalationPolicy(t.ctx, policy.id);
});
afterEach(() => t.cleanup());

const open = (n: number) =>
  Promise.all(
    Array.from({ length: n }, (_, i) =>
      createIncident(t.ctx, user, { title: `Storm ${i}`, severity: 'high' }),
    ),
  );

async function stepsOf(incidentId: string): Promise<string[]> {
  const rows = await t.ctx.sql<{ data: { tier: number; targets: Array<{ name: string }> } }[]>`
    select data from timeline_entries
    where incident_id = ${incidentId} and type = 'escalation_triggered' order by seq`;
  return rows.map((r) => `tier ${r.data.tier}: ${r.data.targets.map((x) => x.name).join(', ')}`);
}

describe('firing escalation steps in batches', () => {
  it('fires every due step once across batches and concurrent passes, with its entry and chat notice', async () => {
    const incidents = await open(45);
    // Batches of 10 from three passes at once: the rows are split, none is fired twice.
    const fired = await Promise.all([1, 2, 3].map(() => runDueEscalations(t.ctx, 10)));
    expect(fired.reduce((a, b) => a + b, 0)).toBe(45);
    clock = new Date('2026-11-21T10:01:00.000Z');
    expect(await runDueEscalations(t.ctx, 10)).toBe(45);
    for (const incident of incidents) {
      expect(await stepsOf(incident.id)).toEqual(['tier 1: Alice', 'tier 2: Bob']);
    }
    const [notices] = await t.ctx.sql<{ n: number }[]>`
      select count(*)::int as n from outbox where job_name = 'chat.escalation_notice'`;
    expect(notices!.n).toBe(90);
    expect(t.logs.lines.filter((l) => l.msg === 'escalation_triggered')).toHaveLength(90);
    const state = await escalations.findEscalation(t.ctx.sql, incidents[0]!.id);
    expect(state).toMatchObject({ next_due_at: null, stopped_reason: 'all tiers notified' });
  });

  it('passes over an incident being acknowledged without waiting, and never pages it after the ack', async () => {
    const [held, other] = await open(2);
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    // An acknowledgement in progress holds the incident's row until it commits.
    const ack = t.ctx.sql.begin(async (tx) => {
      await tx`select id from incidents where id = ${held!.id} for update`;
      locked();
      await released;
      await tx`update incidents set status = 'acknowledged' where id = ${held!.id}`;
      await escalations.stopEscalation(tx, held!.id, 'acknowledged', clock);
    });
    await isLocked;
    // The pass does not wait for the held incident (a waiting pass would never return here).
    expect(await runDueEscalations(t.ctx)).toBe(1);
    expect(await stepsOf(other!.id)).toEqual(['tier 1: Alice']);
    release();
    await ack;
    clock = new Date('2026-11-21T10:05:00.000Z');
    await runDueEscalations(t.ctx);
    expect(await stepsOf(held!.id)).toEqual([]);
    expect((await escalations.findEscalation(t.ctx.sql, held!.id))?.stopped_reason).toBe('acknowledged');
  });

  it('stops the escalation of an incident acknowledged before its step was due', async () => {
    const [incident] = await open(1);
    await runDueEscalations(t.ctx);
    await updateIncident(t.ctx, user, { id: incident!.id }, { status: 'acknowledged' });
    clock = new Date('2026-11-21T10:01:00.000Z');
    expect(await runDueEscalations(t.ctx)).toBe(0);
    expect(await stepsOf(incident!.id)).toEqual(['tier 1: Alice']);
  });
});
