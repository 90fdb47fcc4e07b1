import { escalations, outbox, routingRules, users } from '@firebreak/db';
import { CreateEscalationPolicyInput, CreateScheduleInput } from '@firebreak/schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIncident } from '../incidents/create';
import { updateIncident } from '../incidents/update';
import { createEscalationPolicy } from '../oncall/create-escalation-policy';
import { createSchedule } from '../oncall/create-schedule';
import { setDefaultEscalationPolicy } from '../settings/default-policy';
import { createTestContext, type TestContext } from '../testing/context';
import { runDueEscalations, runEscalation } from './run';

// Escalation (docs/api.md#on-call) with an injected clock: nothing sleeps; time moves when the test says so.
let t: TestContext;
let clock: Date;
const at = (iso: string) => {
  clock = new Date(iso);
};
const user = { type: 'user' as const, name: 'tester' };

beforeEach(async () => {
  t = await createTestContext();
  at('2026-11-21T10:00:00.000Z');
  t.ctx.now = () => clock;
});
afterEach(() => t.cleanup());

async function person(name: string, slack: string | null = null) {
  return users.insertUser(t.ctx.sql, {
    email: `${name.toLowerCase()}@example.test`,
    name,
    role: 'member',
    slackUserId: slack,
  });
}

async function twoTierPolicy(options: { repeat?: number } = {}) {
  const alice = await person('Alice', 'U0ALICE');
  const bob = await person('Bob');
  const policy = await createEscalationPolicy(
    t.ctx,
    CreateEscalationPolicyInput.parse({
      name: `Primary ${Math.random()}`,
      repeat: options.repeat ?? 0,
      tiers: [
        { target_type: 'users', user_ids: [alice.id], timeout_seconds: 300 },
        { target_type: 'users', user_ids: [bob.id], timeout_seconds: 600 },
      ],
    }),
  );
  return { policy, alice, bob };
}

async function steps(incidentId: string) {
  const rows = await t.ctx.sql<
    { type: string; data: { tier: number; round: number; targets: Array<{ name: string }> } }[]
  >`
    select type, data from timeline_entries where incident_id = ${incidentId} and type = 'escalation_triggered' order by seq`;
  return rows.map(
    (r) => `round ${r.data.round} tier ${r.data.tier}: ${r.data.targets.map((x) => x.name).join(', ')}`,
  );
}

describe('escalation with the default policy', () => {
  it('notifies tier 1 at creation and each next tier at its deadline, then stops', async () => {
    const { policy } = await twoTierPolicy();
    await setDefaultEscalationPolicy(t.ctx, policy.id);
    const incident = await createIncident(t.ctx, user, { title: 'DB down', severity: 'critical' });
    expect(incident.escalation_policy_id).toBe(policy.id);

    expect(await runDueEscalations(t.ctx)).toBe(1);
    expect(await steps(incident.id)).toEqual(['round 1 tier 1: Alice']);

    at('2026-11-21T10:04:59.999Z');
    expect(await runDueEscalations(t.ctx)).toBe(0);
    at('2026-11-21T10:05:00.000Z');
    expect(await runDueEscalations(t.ctx)).toBe(1);
    expect(await steps(incident.id)).toEqual(['round 1 tier 1: Alice', 'round 1 tier 2: Bob']);

    at('2026-11-21T11:00:00.000Z');
    expect(await runDueEscalations(t.ctx)).toBe(0);
    expect(await escalations.findEscalation(t.ctx.sql, incident.id)).toMatchObject({
      next_due_at: null,
      stopped_reason: 'all tiers notified',
    });
    const notices = (await outbox.listPendingOutbox(t.ctx.sql, 1000)).filter(
      (r) => r.job_name === 'chat.escalation_notice',
    );
    expect(notices).toHaveLength(2);
    expect(t.logs.lines.filter((l) => l.msg === 'escalation_triggered')).toHaveLength(2);
  });

  it('stops when the incident is acknowledged', async () => {
    const { policy } = await twoTierPolicy();
    await setDefaultEscalationPolicy(t.ctx, policy.id);
    const incident = await createIncident(t.ctx, user, { title: 'API 5xx', severity: 'high' });
    await runDueEscalations(t.ctx);
    at('2026-11-21T10:02:00.000Z');
    await updateIncident(t.ctx, user, { id: incident.id }, { status: 'acknowledged' });
    at('2026-11-21T10:30:00.000Z');
    expect(await runDueEscalations(t.ctx)).toBe(0);
    expect(await steps(incident.id)).toEqual(['round 1 tier 1: Alice']);
    expect((await escalations.findEscalation(t.ctx.sql, incident.id))?.stopped_reason).toBe('acknowledged');
  });

  it('repeats the tiers as many times as the policy says', async () => {
    const { policy } = await twoTierPolicy({ repeat: 1 });
    await setDefaultEscalationPolicy(t.ctx, policy.id);
    const incident = await createIncident(t.ctx, user, { title: 'Queue stuck', severity: 'high' });
    for (const minute of ['10:00', '10:05', '10:15', '10:20', '10:30', '11:00']) {
      at(`2026-11-21T${minute}:00.000Z`);
      await runDueEscalations(t.ctx);
    }
    expect(await steps(incident.id)).toEqual([
      'round 1 tier 1: Alice',
      'round 1 tier 2: Bob',
      'round 2 tier 1: Alice',
      'round 2 tier 2: Bob',
    ]);
  });

  it('notifies each step once however often and however late it is asked', async () => {
    const { policy } = await twoTierPolicy();
    await setDefaultEscalationPolicy(t.ctx, policy.id);
    const incident = await createIncident(t.ctx, user, { title: 'Disk', severity: 'low' });
    const results = await Promise.all(Array.from({ length: 8 }, () => runEscalation(t.ctx, incident.id)));
    expect(results.filter((r) => r.fired)).toHaveLength(1);
    at('2026-11-21T12:00:00.000Z'); // very late: still one step per deadline, not a burst
    await Promise.all(Array.from({ length: 8 }, () => runEscalation(t.ctx, incident.id)));
    expect(await steps(incident.id)).toEqual(['round 1 tier 1: Alice', 'round 1 tier 2: Bob']);
  });

  it('does nothing without a default policy, or with a disabled one', async () => {
    const none = await createIncident(t.ctx, user, { title: 'No policy', severity: 'low' });
    expect(none.escalation_policy_id).toBeNull();
    const { policy } = await twoTierPolicy();
    await t.ctx.sql`update escalation_policies set enabled = false where id = ${policy.id}`;
    await setDefaultEscalationPolicy(t.ctx, policy.id);
    const disabled = await createIncident(t.ctx, user, { title: 'Disabled policy', severity: 'low' });
    expect(disabled.escalation_policy_id).toBeNull();
    expect(await runDueEscalations(t.ctx)).toBe(0);
  });
});

describe('policy from the routing rule', () => {
  it('wins over the default', async () => {
    const { policy: fallback } = await twoTierPolicy();
    await setDefaultEscalationPolicy(t.ctx, fallback.id);
    const carol = await person('Carol');
    const dbPolicy = await createEscalationPolicy(
      t.ctx,
      CreateEscalationPolicyInput.parse({
        name: 'DB team',
        tiers: [{ target_type: 'users', user_ids: [carol.id] }],
      }),
    );
    await routingRules.insertRoutingRule(
      t.ctx.sql,
      {
        name: 'db',
        priority: 1,
        enabled: true,
        match_criteria: { labels: { team: 'db' } },
        actions: { create_incident: true, escalation_policy_id: dbPolicy.id },
      },
      clock,
    );
    const { recordAlerts } = await import('../alerts/record-alerts');
    const result = await recordAlerts(t.ctx, 'generic', [
      {
        title: 'Replica lag',
        description: null,
        severity: 'warning',
        status: 'firing',
        externalId: 'lag',
        fingerprint: null,
        source: null,
        labels: { team: 'db' },
        annotations: {},
        startedAt: clock,
        endedAt: null,
      },
    ]);
    const incidentId = result.alerts[0]!.incident_id!;
    await runDueEscalations(t.ctx);
    expect(await steps(incidentId)).toEqual(['round 1 tier 1: Carol']);
  });
});

describe('schedule tiers', () => {
  it('page whoever is on call when the tier fires', async () => {
    const [dana, erin] = [await person('Dana', 'U0DANA'), await person('Erin')];
    const schedule = await createSchedule(
      t.ctx,
      CreateScheduleInput.parse({
        name: 'Primary on-call',
        timezone: 'Europe/Berlin',
        layers: [
          {
            name: 'Daily',
            rotation_start: '2026-11-20T09:00:00+01:00',
            shift_duration_seconds: 86_400,
            rotation_type: 'daily',
            participants: [{ user_id: dana.id }, { user_id: erin.id }],
          },
        ],
      }),
    );
    const policy = await createEscalationPolicy(
      t.ctx,
      CreateEscalationPolicyInput.parse({
        name: 'Schedule policy',
        tiers: [{ target_type: 'schedule', schedule_id: schedule.id, timeout_seconds: 60 }],
      }),
    );
    await setDefaultEscalationPolicy(t.ctx, policy.id);
    // 2026-11-21 10:00 UTC = 11:00 Berlin: the second day of the rotation, Erin's turn.
    const incident = await createIncident(t.ctx, user, { title: 'Pager', severity: 'critical' });
    await runDueEscalations(t.ctx);
    expect(await steps(incident.id)).toEqual(['round 1 tier 1: Erin']);
    const [entry] = await t.ctx.sql<{ data: { targets: unknown } }[]>`
      select data from timeline_entries where incident_id = ${incident.id} and type = 'escalation_triggered'`;
    expect(entry!.data.targets).toEqual([{ id: erin.id, name: 'Erin', slack_user_id: null }]);
  });
});
