import {
  escalationPolicies,
  escalations,
  outbox,
  type Queryable,
  settingKeys,
  settings,
} from '@firebreak/db';

/**
 * An incident gets a policy from its routing rule, else the installation default (docs/api.md#on-call). A
 * disabled or missing policy means no escalation.
 */
export async function chooseEscalationPolicy(
  tx: Queryable,
  rulePolicyId: string | null,
): Promise<string | null> {
  const policyId =
    rulePolicyId ?? (await settings.getSetting<string>(tx, settingKeys.defaultEscalationPolicy)) ?? null;
  if (!policyId) return null;
  const policy = await escalationPolicies.findPolicy(tx, policyId);
  return policy?.enabled ? policy.id : null;
}

/**
 * Starts an incident's escalation at once (tier 1 is notified at creation): the deadline row says "due
 * now", and an outbox row wakes a worker when the transaction commits.
 */
export async function startEscalation(
  tx: Queryable,
  incidentId: string,
  policyId: string,
  at: Date,
): Promise<void> {
  await escalations.insertEscalation(tx, { incidentId, policyId, dueAt: at });
  await outbox.insertOutboxRows(tx, [
    { name: 'escalation.check', payload: { incident_id: incidentId }, orderingKey: incidentId },
  ]);
}
