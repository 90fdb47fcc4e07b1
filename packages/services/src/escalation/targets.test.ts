import { escalationPolicies, users } from '@firebreak/db';
import { CreateEscalationPolicyInput, CreateScheduleInput } from '@firebreak/schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../auth/principal';
import { createEscalationPolicy } from '../oncall/create-escalation-policy';
import { createOverride } from '../oncall/create-override';
import { createSchedule } from '../oncall/create-schedule';
import { createTestContext, type TestContext } from '../testing/context';
import { resolveTargets } from './targets';

// A schedule tier pages whoever is on call with overrides applied (docs/schedules.md#overrides).
let t: TestContext;
beforeEach(async () => {
  t = await createTestContext();
});
afterEach(() => t.cleanup());

const admin: Principal = { kind: 'session', role: 'admin', user: null };
const person = (name: string, slack: string | null) =>
  users.insertUser(t.ctx.sql, {
    email: `${name.toLowerCase()}@example.test`,
    name,
    role: 'member',
    slackUserId: slack,
  });

describe('schedule tier targets', () => {
  it('page the person an override puts on call, not the one the layers name', async () => {
    const [dana, erin, finn] = [
      await person('Dana', 'U0DANA'),
      await person('Erin', null),
      await person('Finn', 'U0FINN'),
    ];
    const schedule = await createSchedule(
      t.ctx,
      CreateScheduleInput.parse({
        name: 'Primary',
        timezone: 'Europe/Berlin',
        layers: [
          {
            rotation_start: '2026-11-20T09:00:00+01:00',
            shift_duration_seconds: 86_400,
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
    const [tier] = (await escalationPolicies.findPolicy(t.ctx.sql, policy.id))!.tiers;
    // Erin's turn from 09:00 Berlin on the 21st; Finn covers her from 10:00 to 12:00 Berlin.
    await createOverride(t.ctx, admin, schedule.id, {
      user_id: finn.id,
      replaces_user_id: erin.id,
      starts_at: '2026-11-21T10:00:00+01:00',
      ends_at: '2026-11-21T12:00:00+01:00',
    });
    const at = (iso: string) => resolveTargets(t.ctx.sql, tier!, new Date(iso));
    expect(await at('2026-11-21T08:30:00Z')).toEqual([{ id: erin.id, name: 'Erin', slack_user_id: null }]);
    expect(await at('2026-11-21T09:30:00Z')).toEqual([
      { id: finn.id, name: 'Finn', slack_user_id: 'U0FINN' },
    ]);
    expect(await at('2026-11-21T11:00:00Z')).toEqual([{ id: erin.id, name: 'Erin', slack_user_id: null }]);
    // A replacing override outside its person's turn changes nothing: Dana's turn on the 22nd.
    await createOverride(t.ctx, admin, schedule.id, {
      user_id: finn.id,
      replaces_user_id: erin.id,
      starts_at: '2026-11-22T10:00:00+01:00',
      ends_at: '2026-11-22T12:00:00+01:00',
    });
    expect(await at('2026-11-22T09:30:00Z')).toEqual([
      { id: dana.id, name: 'Dana', slack_user_id: 'U0DANA' },
    ]);
  });
});
