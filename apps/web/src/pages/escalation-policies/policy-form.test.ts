import type { EscalationPolicy } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import { emptyPolicyForm, formOfPolicy, type PolicyForm, policyInputOf, tierUserOf } from './policy-form';

const SCHEDULE = '00000000-0000-4000-8000-00000000000a';
const BEA = '00000000-0000-4000-8000-0000000000b1';

describe('the escalation policy editor', () => {
  it('sends tiers in order, people paired with their ids and timeouts in seconds', () => {
    const form: PolicyForm = {
      ...emptyPolicyForm(),
      name: ' Payments ',
      repeat: '2',
      tiers: [
        { key: 'a', targetType: 'schedule', users: [], scheduleId: SCHEDULE, timeoutMinutes: '5' },
        {
          key: 'b',
          targetType: 'users',
          users: [tierUserOf({ id: BEA, name: 'Bea' }), { key: 'c', userId: null, name: 'Imported' }],
          scheduleId: '',
          timeoutMinutes: '1.5',
        },
      ],
    };
    expect(policyInputOf(form)).toEqual({
      input: {
        name: 'Payments',
        description: '',
        enabled: true,
        repeat: 2,
        tiers: [
          { target_type: 'schedule', schedule_id: SCHEDULE, timeout_seconds: 300 },
          {
            target_type: 'users',
            user_ids: [BEA, null],
            user_names: ['Bea', 'Imported'],
            timeout_seconds: 90,
          },
        ],
      },
    });
  });

  it('reads a policy back into the same form', () => {
    const policy: EscalationPolicy = {
      id: '00000000-0000-4000-8000-000000000001',
      name: 'Ops',
      description: 'Night pages',
      enabled: false,
      repeat: 1,
      tiers: [
        {
          target_type: 'users',
          user_ids: [BEA],
          user_names: ['Bea'],
          schedule_id: null,
          timeout_seconds: 600,
        },
      ],
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
    };
    const made = policyInputOf(formOfPolicy(policy));
    expect(made).toEqual({
      input: {
        name: 'Ops',
        description: 'Night pages',
        enabled: false,
        repeat: 1,
        tiers: [{ target_type: 'users', user_ids: [BEA], user_names: ['Bea'], timeout_seconds: 600 }],
      },
    });
  });

  it('refuses what the API would, naming the tier', () => {
    const form = { ...emptyPolicyForm(), name: 'P' };
    expect(policyInputOf(form)).toEqual({ error: 'Tier 1: add at least one person to page.' });
    expect(policyInputOf({ ...form, tiers: [{ ...form.tiers[0]!, targetType: 'schedule' }] })).toEqual({
      error: 'Tier 1: choose the schedule to page.',
    });
    expect(policyInputOf({ ...form, repeat: '11' })).toMatchObject({
      error: expect.stringContaining('Repeat'),
    });
    expect(policyInputOf({ ...form, name: ' ' })).toEqual({ error: 'Give the policy a name.' });
    const slow = {
      ...form.tiers[0]!,
      users: [tierUserOf({ id: BEA, name: 'Bea' })],
      timeoutMinutes: '20000',
    };
    expect(policyInputOf({ ...form, tiers: [slow] })).toEqual({
      error: 'Tier 1: the timeout can be at most 7 days.',
    });
  });
});
