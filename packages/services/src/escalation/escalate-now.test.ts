import { escalations, outbox, users } from '@firebreak/db';
import { AppError, CreateEscalationPolicyInput } from '@firebreak/schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIncident } from '../incidents/create';
import { getIncident } from '../incidents/queries';
import { updateIncident } from '../incidents/update';
import { createEscalationPolicy } from '../oncall/create-escalation-policy';
import { setDefaultEscalationPolicy } from '../settings/default-policy';
import { createTestContext, type TestContext } from '../testing/context';
import { escalateNow } from './escalate-now';
import { runDueEscalations } from './run';

// Manual escalation (docs/api.md#manual-escalation) beside the timers, with an injected clock.
let t: TestContext;
let clock: Date;
const at = (iso: string) => {
  clock = new Date(iso);
};
const system = { type: 'user' as const, name: 'tester' };
const operator = { type: 'user' as const, id: '00000000-0000-4000-8000-000000000001', name: 'Olga' };
const chatOn = { chat: true };

beforeEach(async () => {
  t = await createTestContext();
  at('2026-11-21T10:00:00.000Z');
  t.ctx.now = () => clock;
});
afterEach(() => t.cleanup());

let people = 0;
async function person(name: string) {
  people++;
  return users.insertUser(t.ctx.sql, {
    email: `${name.toLowerCase()}-${people}@example.test`,
    name,
    role: 'member',
    slackUserId: `U0${name.toUpperCase()}${people}`,
  });
}

/** Three tiers (Alice 5 min, Bob 10 min, Carol), the default policy. */
async function openIncident() {
  const [alice, bob, carol] = [await person('Alice'), await person('Bob'), await person('Carol')];
  const policy = await createEscalationPolicy(
    t.ctx,
    CreateEscalationPolicyInput.parse({
      name: `Primary ${people}`,
      repeat: 0,
      tiers: [alice, bob, carol].map((p, i) => ({
        target_type: 'users',
        user_ids: [p.id],
        timeout_seconds: (i + 1) * 300,
      })),
    }),
  );
  await setDefaultEscalationPolicy(t.ctx, policy.id);
  const incident = await createIncident(t.ctx, system, { title: 'DB down', severity: 'critical' });
  expect(await runDueEscalations(t.ctx)).toBe(1);
  return incident;
}

async function steps(incidentId: string) {
  const rows = await t.ctx.sql<{ actor_name: string; data: Record<string, unknown> }[]>`
    select actor_name, data from timeline_entries
    where incident_id = ${incidentId} and type = 'escalation_triggered' order by seq`;
  return rows.map((r) => {
    const names = (r.data.targets as Array<{ name: string }>).map((x) => x.name).join(', ');
    return `tier ${r.data.tier}${r.data.manual ? ` by ${r.actor_name}` : ''}: ${names}`;
  });
}

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    return error instanceof AppError ? error.code : String(error);
  }
};

describe('escalating by hand', () => {
  it('pages the next tier now and starts the following timer from now', async () => {
    const incident = await openIncident();
    at('2026-11-21T10:01:00.000Z');
    const escalated = await escalateNow(t.ctx, operator, { number: incident.number }, chatOn);
    expect(escalated).toMatchObject({ id: incident.id, status: 'triggered', escalated_to_tier: 2 });
    expect(await steps(incident.id)).toEqual(['tier 1: Alice', 'tier 2 by Olga: Bob']);
    // Tier 2's timeout (10 min) counts from the manual step, not from tier 1.
    expect(await escalations.findEscalation(t.ctx.sql, incident.id)).toMatchObject({
      next_tier: 2,
      next_due_at: new Date('2026-11-21T10:11:00.000Z'),
    });
    at('2026-11-21T10:05:00.000Z');
    expect(await runDueEscalations(t.ctx)).toBe(0);
    at('2026-11-21T10:11:00.000Z');
    expect(await runDueEscalations(t.ctx)).toBe(1);
    expect(await steps(incident.id)).toEqual(['tier 1: Alice', 'tier 2 by Olga: Bob', 'tier 3: Carol']);
    const notices = (await outbox.listPendingOutbox(t.ctx.sql, 1000)).filter(
      (r) => r.job_name === 'chat.escalation_notice',
    );
    expect(notices).toHaveLength(3);
    expect(t.logs.lines.filter((l) => l.msg === 'escalation_triggered')).toHaveLength(3);
  });

  it('pages the next tier of an acknowledged incident once per request without restarting timers', async () => {
    const incident = await openIncident();
    await updateIncident(t.ctx, system, { id: incident.id }, { status: 'acknowledged' });
    expect((await escalateNow(t.ctx, operator, { id: incident.id }, chatOn)).escalated_to_tier).toBe(2);
    expect(await escalations.findEscalation(t.ctx.sql, incident.id)).toMatchObject({
      next_tier: 2,
      next_due_at: null,
      stopped_reason: 'acknowledged',
    });
    at('2026-11-21T12:00:00.000Z');
    expect(await runDueEscalations(t.ctx)).toBe(0);
    expect((await escalateNow(t.ctx, operator, { id: incident.id }, chatOn)).escalated_to_tier).toBe(3);
    expect(await codeOf(escalateNow(t.ctx, operator, { id: incident.id }, chatOn))).toBe('no_next_tier');
    expect(await steps(incident.id)).toEqual([
      'tier 1: Alice',
      'tier 2 by Olga: Bob',
      'tier 3 by Olga: Carol',
    ]);
  });

  it('refuses a resolved incident and one without a policy, changing nothing', async () => {
    const incident = await openIncident();
    await updateIncident(t.ctx, system, { id: incident.id }, { status: 'resolved' });
    expect(await codeOf(escalateNow(t.ctx, operator, { id: incident.id }, chatOn))).toBe('incident_not_open');
    await setDefaultEscalationPolicy(t.ctx, null);
    const quiet = await createIncident(t.ctx, system, { title: 'No policy', severity: 'low' });
    expect(await codeOf(escalateNow(t.ctx, operator, { id: quiet.id }, chatOn))).toBe('no_next_tier');
    expect(await codeOf(escalateNow(t.ctx, operator, { number: 999_999 }, chatOn))).toBe('not_found');
    expect(await steps(incident.id)).toEqual(['tier 1: Alice']);
    expect(await steps(quiet.id)).toEqual([]);
  });

  it('never pages a tier twice when a timer fires at the same moment', async () => {
    for (let round = 0; round < 5; round++) {
      const incident = await openIncident();
      // Tier 2 is due now: the reconciler and the operator race for it.
      at(`2026-11-21T1${round}:05:00.000Z`);
      await t.ctx
        .sql`update incident_escalations set next_due_at = ${clock} where incident_id = ${incident.id}`;
      const [timer, manual] = await Promise.allSettled([
        runDueEscalations(t.ctx),
        escalateNow(t.ctx, operator, { id: incident.id }, chatOn),
      ]);
      expect(timer.status).toBe('fulfilled');
      expect(manual.status).toBe('fulfilled');
      // Either the timer took tier 2 and the operator's request paged tier 3, or the operator took
      // tier 2 (moving its deadline) and the timer paged nothing.
      const tier = (manual as PromiseFulfilledResult<{ escalated_to_tier: number }>).value.escalated_to_tier;
      expect(await steps(incident.id)).toEqual(
        tier === 3
          ? ['tier 1: Alice', 'tier 2: Bob', 'tier 3 by Olga: Carol']
          : ['tier 1: Alice', 'tier 2 by Olga: Bob'],
      );
    }
  });

  it('pages one tier when two requests name the same expected tier at once; the other is told', async () => {
    for (const status of ['triggered', 'acknowledged'] as const) {
      const incident = await openIncident();
      if (status === 'acknowledged') {
        await updateIncident(t.ctx, system, { id: incident.id }, { status: 'acknowledged' });
      }
      expect((await getIncident(t.ctx, { id: incident.id })).next_tier).toBe(2);
      const both = await Promise.allSettled([
        escalateNow(t.ctx, operator, { id: incident.id }, { ...chatOn, expectedTier: 2 }),
        escalateNow(t.ctx, operator, { id: incident.id }, { ...chatOn, expectedTier: 2 }),
      ]);
      const paged = both.filter((r) => r.status === 'fulfilled');
      const refused = both.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      expect(paged).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect(refused[0]).toMatchObject({ code: 'conflict' });
      expect((refused[0] as AppError).message).toContain('Tier 2 was already paged');
      expect(await steps(incident.id)).toEqual(['tier 1: Alice', 'tier 2 by Olga: Bob']);
      expect((await getIncident(t.ctx, { id: incident.id })).next_tier).toBe(3);
    }
  });

  it('pages the expected tier when it is still next, and refuses a tier already passed after the last one', async () => {
    const incident = await openIncident();
    const escalated = await escalateNow(t.ctx, operator, { id: incident.id }, { ...chatOn, expectedTier: 2 });
    expect(escalated).toMatchObject({ escalated_to_tier: 2, next_tier: 3 });
    await escalateNow(t.ctx, operator, { id: incident.id }, { ...chatOn, expectedTier: 3 });
    expect((await getIncident(t.ctx, { id: incident.id })).next_tier).toBeNull();
    const late = escalateNow(t.ctx, operator, { id: incident.id }, { ...chatOn, expectedTier: 3 });
    await expect(late).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('Tier 3 was already paged'),
    });
    // Without an expected tier the answer stays "no tier left".
    expect(await codeOf(escalateNow(t.ctx, operator, { id: incident.id }, chatOn))).toBe('no_next_tier');
    expect(await steps(incident.id)).toEqual([
      'tier 1: Alice',
      'tier 2 by Olga: Bob',
      'tier 3 by Olga: Carol',
    ]);
  });

  it('marks a step taken while acknowledged, and not one taken while triggered', async () => {
    const incident = await openIncident();
    await escalateNow(t.ctx, operator, { id: incident.id }, chatOn);
    await updateIncident(t.ctx, system, { id: incident.id }, { status: 'acknowledged' });
    await escalateNow(t.ctx, operator, { id: incident.id }, chatOn);
    const data = await t.ctx.sql<{ tier: number; while_acknowledged: boolean | null }[]>`
      select (data ->> 'tier')::int as tier, (data ->> 'while_acknowledged')::boolean as while_acknowledged
      from timeline_entries where incident_id = ${incident.id} and type = 'escalation_triggered' order by seq`;
    expect(data).toEqual([
      { tier: 1, while_acknowledged: null },
      { tier: 2, while_acknowledged: null },
      { tier: 3, while_acknowledged: true },
    ]);
  });

  it('refuses an acknowledged incident whose tier nobody can be reached on by chat, paging nothing', async () => {
    const incident = await openIncident();
    await updateIncident(t.ctx, system, { id: incident.id }, { status: 'acknowledged' });
    const chatOff = escalateNow(t.ctx, operator, { id: incident.id }, { chat: false });
    await expect(chatOff).rejects.toMatchObject({
      code: 'no_reachable_target',
      message: expect.stringContaining('chat is off'),
    });
    // Bob (tier 2) has no chat user id.
    await t.ctx.sql`update users set slack_user_id = null where name = 'Bob'`;
    await expect(escalateNow(t.ctx, operator, { id: incident.id }, chatOn)).rejects.toMatchObject({
      code: 'no_reachable_target',
      message: expect.stringContaining('nobody on it has a chat user id'),
    });
    expect(await steps(incident.id)).toEqual(['tier 1: Alice']);
    expect(await escalations.findEscalation(t.ctx.sql, incident.id)).toMatchObject({ next_tier: 1 });
    // While triggered, personal pages still reach Bob: the request goes through.
    const other = await openIncident();
    await t.ctx.sql`update users set slack_user_id = null`;
    const escalated = await escalateNow(t.ctx, operator, { id: other.id }, { chat: false });
    expect(escalated.escalated_to_tier).toBe(2);
  });
});
