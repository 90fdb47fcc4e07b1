import type { OnCallEscalationChainItem, OnCallEscalationStepItem } from '@firebreak/schema';
import { type StepContext, stepsToTiers } from './tiers';
import type { ExistingRecords, Findings, PlannedPolicy } from './types';

/**
 * Escalation chains → policies (docs/import-oncall.md#what-is-imported-and-how): a name clash is a conflict,
 * the description says where the policy came from, policies start enabled. Linking a policy to routing rules
 * stays a manual step.
 */

export const IMPORTED_POLICY_DESCRIPTION = 'Imported from Grafana OnCall';

export interface PolicyPlan extends Findings {
  escalationPolicies: PlannedPolicy[];
}

export function planPolicies(
  chains: readonly OnCallEscalationChainItem[],
  steps: readonly OnCallEscalationStepItem[],
  context: StepContext,
  existing: ExistingRecords,
): PolicyPlan {
  const existingNames = new Set(existing.policyNames);
  const taken = new Set<string>();
  const plan: PolicyPlan = { escalationPolicies: [], conflicts: [], warnings: [] };
  for (const chain of chains) {
    const name = chain.name.trim() || chain.id;
    if (existingNames.has(name) || taken.has(name)) {
      plan.conflicts.push({
        kind: 'escalation_policy',
        name,
        reason: taken.has(name)
          ? 'an earlier escalation chain in this import has the same name'
          : 'an escalation policy with this name already exists',
      });
      continue;
    }
    taken.add(name);
    const { tiers, notes } = stepsToTiers(
      steps.filter((step) => step.escalation_chain_id === chain.id),
      context,
    );
    for (const message of notes) plan.warnings.push({ kind: 'escalation_policy', name, message });
    if (tiers.length === 0) {
      plan.warnings.push({
        kind: 'escalation_policy',
        name,
        message: 'no step could be imported; the policy pages nobody until tiers are added',
      });
    }
    plan.escalationPolicies.push({
      sourceId: chain.id,
      name,
      description: IMPORTED_POLICY_DESCRIPTION,
      enabled: true,
      tiers,
    });
  }
  return plan;
}
