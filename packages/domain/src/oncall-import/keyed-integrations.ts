import type { ExistingRecords, Findings, PlannedKeyedIntegration } from './types';

/**
 * Integrations that keep the source's key. A key names one integration (the column is unique): a key
 * that an integration here already has — most likely from an earlier run of the same import — is a
 * conflict, skipped, never a second record; the same key twice in one source is created once.
 */
export interface KeyedIntegrationPlan extends Pick<Findings, 'conflicts'> {
  keyedIntegrations: PlannedKeyedIntegration[];
}

export function planKeyedIntegrations(
  candidates: readonly PlannedKeyedIntegration[],
  existing: Pick<ExistingRecords, 'integrationKeys'>,
): KeyedIntegrationPlan {
  const taken = new Set(existing.integrationKeys);
  const planned = new Set<string>();
  const plan: KeyedIntegrationPlan = { keyedIntegrations: [], conflicts: [] };
  for (const candidate of candidates) {
    if (taken.has(candidate.key) || planned.has(candidate.key)) {
      plan.conflicts.push({
        kind: 'integration',
        name: candidate.name,
        reason: taken.has(candidate.key)
          ? 'an integration with this key already exists'
          : 'an earlier integration in this import has the same key',
      });
      continue;
    }
    planned.add(candidate.key);
    plan.keyedIntegrations.push(candidate);
  }
  return plan;
}
