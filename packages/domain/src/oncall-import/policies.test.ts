import { describe, expect, it } from 'vitest';
import { IMPORTED_POLICY_DESCRIPTION, planPolicies } from './policies';
import type { StepContext } from './tiers';
import type { ExistingRecords } from './types';

const context: StepContext = {
  people: new Map([['UA', { email: 'a@x.dev', name: 'Alice' }]]),
  schedules: new Map(),
};
const nothing: ExistingRecords = { users: [], scheduleNames: [], policyNames: [], integrationKeys: [] };
const notifyAlice = (chain: string, position = 0) => ({
  id: `E${chain}${position}`,
  escalation_chain_id: chain,
  position,
  type: 'notify_persons',
  persons_to_notify: ['UA'],
});

describe('escalation chains → policies', () => {
  it('name, a fixed description naming Grafana OnCall, enabled, and the tiers of their own steps', () => {
    const plan = planPolicies(
      [
        { id: 'F1', name: 'Platform' },
        { id: 'F2', name: 'Payments' },
      ],
      [notifyAlice('F2'), notifyAlice('F1'), notifyAlice('F1', 1)],
      context,
      nothing,
    );
    expect(plan.escalationPolicies.map((p) => [p.sourceId, p.name, p.enabled, p.tiers.length])).toEqual([
      ['F1', 'Platform', true, 2],
      ['F2', 'Payments', true, 1],
    ]);
    expect(IMPORTED_POLICY_DESCRIPTION).toContain('Grafana OnCall');
    expect(plan.escalationPolicies.every((p) => p.description === IMPORTED_POLICY_DESCRIPTION)).toBe(true);
  });

  it('skip a name that already exists, or that an earlier chain took, as a conflict', () => {
    const plan = planPolicies(
      [
        { id: 'F1', name: 'Platform' },
        { id: 'F2', name: 'Payments' },
        { id: 'F3', name: 'Payments' },
      ],
      [],
      context,
      { ...nothing, policyNames: ['Platform'] },
    );
    expect(plan.escalationPolicies.map((p) => p.sourceId)).toEqual(['F2']);
    expect(plan.conflicts).toEqual([
      {
        kind: 'escalation_policy',
        name: 'Platform',
        reason: 'an escalation policy with this name already exists',
      },
      {
        kind: 'escalation_policy',
        name: 'Payments',
        reason: 'an earlier escalation chain in this import has the same name',
      },
    ]);
  });

  it('warn under the policy name about skipped steps, and about a policy left without tiers', () => {
    const plan = planPolicies(
      [{ id: 'F1', name: 'Quiet' }],
      [{ id: 'E1', escalation_chain_id: 'F1', position: 0, type: 'resolve' }],
      context,
      nothing,
    );
    expect(plan.escalationPolicies[0]!.tiers).toEqual([]);
    expect(plan.warnings).toEqual([
      { kind: 'escalation_policy', name: 'Quiet', message: 'position 0: resolve: step type not imported' },
      { kind: 'escalation_policy', name: 'Quiet', message: expect.stringContaining('pages nobody') },
    ]);
  });
});
