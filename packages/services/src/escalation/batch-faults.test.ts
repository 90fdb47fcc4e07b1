import { contactMethods, escalations, users } from '@firebreak/db';
import { CreateEscalationPolicyInput, CreateScheduleInput, type NotificationMethod } from '@firebreak/schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemOrigin } from '../audit';
import { createIncident } from '../incidents/create';
import { createEscalationPolicy } from '../oncall/create-escalation-policy';
import { createSchedule } from '../oncall/create-schedule';
import { setNotificationRules } from '../paging/set-notification-rules';
import { setDefaultEscalationPolicy } from '../settings/default-policy';
import { createTestContext, type TestContext } from '../testing/context';
import { runDueEscalations } from './run';

// What goes wrong inside a batch of steps (docs/decisions.md#escalation-timers-under-load): a step that
// cannot fire, and two batches paging the same people in opposite orders.
let t: TestContext;
let clock: Date;
const actor = { type: 'user' as const, name: 'tester' };
const everything = new Set<NotificationMethod>(['chat', 'email', 'sms', 'voice', 'push']);

beforeEach(async () => {
  t = await createTestContext();
  clock = new Date('2026-11-21T10:00:00.000Z');
  t.ctx.now = () => clock;
});
afterEach(() => t.cleanup());

const insertPerson = async (name: string) =>
  (await users.insertUser(t.ctx.sql, { email: `${name}@example.test`, name, role: 'member' }))!;

async function policyPaging(name: string, tier: Record<string, unknown>): Promise<string> {
  const policy = await createEscalationPolicy(
    t.ctx,
    CreateEscalationPolicyInput.parse({ name, tiers: [{ ...tier, timeout_seconds: 600 }] }),
  );
  return policy.id;
}

/** Opens an incident escalating by `policyId`, its first step due at `at`. */
async function openUnder(policyId: string, at: Date) {
  clock = at;
  await setDefaultEscalationPolicy(t.ctx, policyId);
  return createIncident(t.ctx, actor, { title: `Opened at ${at.toISOString()}`, severity: 'high' });
}

const firedSteps = async (incidentId: string) =>
  (await t.ctx.sql`select 1 from escalation_steps where incident_id = ${incidentId}`).length;

describe('faults in a batch of escalation steps', () => {
  it('fires the other steps of a batch when one cannot fire, and logs the one once', async () => {
    const ana = await insertPerson('Ana');
    const schedule = await createSchedule(
      t.ctx,
      CreateScheduleInput.parse({
        name: 'Imported',
        timezone: 'UTC',
        layers: [
          {
            rotation_start: '2026-11-20T09:00:00Z',
            shift_duration_seconds: 86_400,
            participants: [{ user_id: ana.id }],
          },
        ],
      }),
    );
    // A zone this server's time-zone data does not know (written by an import, or dropped from the
    // data since): asking who is on call throws.
    await t.ctx.sql`update schedules set timezone = 'Mars/Olympus_Mons' where id = ${schedule.id}`;
    const broken = await policyPaging('Broken', { target_type: 'schedule', schedule_id: schedule.id });
    const working = await policyPaging('Working', { target_type: 'users', user_ids: [ana.id] });
    const start = new Date('2026-11-21T10:00:00.000Z');
    // The broken step is the oldest: it comes first in every batch.
    const bad = await openUnder(broken, start);
    const good = await Promise.all([1, 2, 3].map((i) => openUnder(working, new Date(start.getTime() + i))));
    clock = new Date(start.getTime() + 1000);

    expect(await runDueEscalations(t.ctx, 10)).toBe(3);
    for (const incident of good) expect(await firedSteps(incident.id)).toBe(1);
    expect(await firedSteps(bad.id)).toBe(0);
    // Still due, for the reconciler's next look; the next batch leaves it out and fires the others.
    expect((await escalations.findEscalation(t.ctx.sql, bad.id))?.next_due_at).toEqual(start);
    const later = await openUnder(working, clock);
    expect(await runDueEscalations(t.ctx, 10)).toBe(1);
    expect(await firedSteps(later.id)).toBe(1);

    const failed = t.logs.lines.filter((line) => line.msg === 'escalation step failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ incident_id: bad.id });
    expect(t.logs.lines.filter((line) => line.msg === 'escalation batch failed')).toHaveLength(1);
  });

  it('does not deadlock two batches paging the same people by SMS in opposite orders', async () => {
    const [alice, bob] = [await insertPerson('Alice'), await insertPerson('Bob')];
    for (const [person, number] of [
      [alice, '+14155550111'],
      [bob, '+14155550122'],
    ] as const) {
      const sms = await contactMethods.insertContactMethod(t.ctx.sql, {
        userId: person.id,
        type: 'sms',
        address: number,
        pushKeys: null,
        label: null,
        verifiedAt: clock,
        at: clock,
      });
      await setNotificationRules(
        t.ctx,
        { id: person.id, name: person.name, slack_user_id: null },
        [{ method: 'sms', delay_minutes: 0, contact_method_id: sms!.id }],
        everything,
        systemOrigin,
      );
    }
    const pagesAlice = await policyPaging('Alice', { target_type: 'users', user_ids: [alice.id] });
    const pagesBob = await policyPaging('Bob', { target_type: 'users', user_ids: [bob.id] });

    for (let round = 0; round < 6; round++) {
      const start = new Date(Date.UTC(2026, 10, 21, 10, round));
      // Oldest first, two per batch: one batch pages Alice then Bob, the other Bob then Alice.
      const opened = [];
      for (const [i, policy] of [pagesAlice, pagesBob, pagesBob, pagesAlice].entries()) {
        opened.push(await openUnder(policy, new Date(start.getTime() + i)));
      }
      clock = new Date(start.getTime() + 10);
      const fired = await Promise.all([runDueEscalations(t.ctx, 2), runDueEscalations(t.ctx, 2)]);
      expect(fired[0]! + fired[1]!).toBe(4);
      for (const incident of opened) expect(await firedSteps(incident.id)).toBe(1);
    }
    const pages = await t.ctx.sql<{ n: number }[]>`
      select count(*)::int as n from page_deliveries where method = 'sms' and ack_code is not null`;
    expect(pages[0]!.n).toBe(24);
    // A deadlock would be resolved by firing the batch's steps one at a time: the batch's failure is
    // the only trace.
    expect(t.logs.lines.filter((line) => line.msg === 'escalation batch failed')).toEqual([]);
  });
});
