import type { PagerDutyEscalationPolicyItem, PagerDutyReference } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import { IMPORTED_FROM_PAGERDUTY, planPagerDutyPolicies } from './policies';
import { planPagerDutyUsers } from './users';

const { directory } = planPagerDutyUsers(
  [
    { id: 'PA', name: 'Ada', email: 'ada@x.dev', role: 'user' },
    { id: 'PB', name: 'Ben', email: 'ben@x.dev', role: 'user' },
  ],
  ['PGONE'],
  { users: [] },
);
const context = {
  directory,
  schedules: new Map([
    ['S1', 'Primary'],
    ['S2', 'Secondary'],
  ]),
};
const user = (id: string, summary = id): PagerDutyReference => ({ id, type: 'user_reference', summary });
const schedule = (id: string, summary = id): PagerDutyReference => ({
  id,
  type: 'schedule_reference',
  summary,
});

function policy(
  rules: Array<[number, PagerDutyReference[]]>,
  fields: Partial<PagerDutyEscalationPolicyItem> = {},
) {
  return {
    id: 'E1',
    name: 'Default',
    num_loops: 0,
    escalation_rules: rules.map(([delay, targets]) => ({ escalation_delay_in_minutes: delay, targets })),
    ...fields,
  };
}

const plan = (policies: PagerDutyEscalationPolicyItem[], policyNames: string[] = []) =>
  planPagerDutyPolicies(policies, context, { policyNames });

describe('PagerDuty escalation policies', () => {
  it('turns each rule into a tier, its delay into the timeout, num_loops into repeat', () => {
    const result = plan([
      policy(
        [
          [15, [schedule('S1')]],
          [10, [user('PA'), user('PB')]],
        ],
        { num_loops: 2 },
      ),
    ]);
    expect(result.escalationPolicies).toEqual([
      {
        sourceId: 'E1',
        name: 'Default',
        description: IMPORTED_FROM_PAGERDUTY,
        enabled: true,
        repeat: 2,
        tiers: [
          {
            targetType: 'schedule',
            users: [],
            schedule: { sourceId: 'S1', name: 'Primary' },
            timeoutSeconds: 900,
          },
          {
            targetType: 'users',
            users: [
              { email: 'ada@x.dev', name: 'Ada' },
              { email: 'ben@x.dev', name: 'Ben' },
            ],
            schedule: null,
            timeoutSeconds: 600,
          },
        ],
      },
    ]);
    expect(result.warnings).toEqual([]);
  });

  it('approximates a rule with a schedule and users: the schedule, with a warning', () => {
    const result = plan([policy([[5, [schedule('S2', 'Secondary'), user('PA', 'Ada')]]])]);
    expect(result.escalationPolicies[0]!.tiers).toEqual([
      {
        targetType: 'schedule',
        users: [],
        schedule: { sourceId: 'S2', name: 'Secondary' },
        timeoutSeconds: 300,
      },
    ]);
    expect(result.warnings[0]!.message).toBe(
      'rule 1: pages whoever is on call in Secondary only; Ada dropped (a tier pages users or one schedule)',
    );
  });

  it('approximates a rule with several schedules: the first imported one', () => {
    const result = plan([policy([[5, [schedule('SX', 'Not imported'), schedule('S2'), schedule('S1')]]])]);
    expect(result.escalationPolicies[0]!.tiers[0]!.schedule).toEqual({ sourceId: 'S2', name: 'Secondary' });
    expect(result.warnings[0]!.message).toBe(
      'rule 1: pages whoever is on call in Secondary only; schedule Primary, schedule Not imported (not imported) dropped (a tier pages users or one schedule)',
    );
  });

  it('keeps a deleted user as a name without an account, with a warning', () => {
    const result = plan([policy([[10, [user('PA', 'Ada'), user('PGONE', 'Old Timer')]]])]);
    expect(result.escalationPolicies[0]!.tiers[0]!.users).toEqual([
      { email: 'ada@x.dev', name: 'Ada' },
      { email: null, name: 'Old Timer' },
    ]);
    expect(result.warnings[0]!.message).toContain('Old Timer (PGONE) was deleted in PagerDuty');
  });

  it('skips a rule nothing of which was imported; a policy without tiers is warned about', () => {
    const result = plan([policy([[10, [schedule('SX', 'Gone')]]])]);
    expect(result.escalationPolicies[0]!.tiers).toEqual([]);
    expect(result.warnings.map((w) => w.message)).toEqual([
      'rule 1: schedule Gone (not imported) dropped',
      'rule 1: no target could be imported; rule skipped',
      'no rule could be imported; the policy pages nobody until tiers are added',
    ]);
  });

  it('bounds repeat at 10 and timeouts at a minute, with a warning for the loops', () => {
    const result = plan([policy([[0, [user('PA')]]], { num_loops: 12 })]);
    expect(result.escalationPolicies[0]!.repeat).toBe(10);
    expect(result.escalationPolicies[0]!.tiers[0]!.timeoutSeconds).toBe(60);
    expect(result.warnings[0]!.message).toBe('num_loops 12 lowered to 10, the most a policy repeats here');
  });

  it('skips a name that exists here as a conflict', () => {
    const result = plan([policy([[10, [user('PA')]]])], ['Default']);
    expect(result.escalationPolicies).toEqual([]);
    expect(result.conflicts).toEqual([
      {
        kind: 'escalation_policy',
        name: 'Default',
        reason: 'an escalation policy with this name already exists',
      },
    ]);
  });
});
