import { escalationPolicies } from '@firebreak/db';
import { AppError } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { presentEscalationPolicy } from './present';
import { notFound } from './write-errors';

/**
 * `DELETE /api/v1/escalation-policies/{id}` (admin). Incidents that used it keep going without one
 * (their `escalation_policy_id` becomes null, so their escalation stops). A policy that routing rules or
 * the installation default still name is not deleted (409 naming them): new incidents would otherwise
 * be opened with a policy that no longer exists.
 */
export async function deleteEscalationPolicy(
  ctx: ServiceContext,
  id: string,
  origin: ChangeOrigin = systemOrigin,
): Promise<void> {
  await ctx.sql.begin(async (tx) => {
    if (!(await escalationPolicies.lockPolicy(tx, id))) throw notFound('escalation policy', id);
    const references = await escalationPolicies.findPolicyReferences(tx, id);
    if (references.routingRules.length > 0 || references.isDefault) throw inUse(references);
    const before = (await escalationPolicies.findPolicy(tx, id))!;
    await escalationPolicies.deletePolicy(tx, id);
    await recordAudit(tx, ctx, {
      origin,
      entity: 'escalation_policy',
      entityId: id,
      action: 'delete',
      before: presentEscalationPolicy(before),
      after: null,
    });
  });
  ctx.logger.info({ escalation_policy_id: id }, 'escalation policy deleted');
}

function inUse(references: escalationPolicies.PolicyReferences): AppError {
  const users = [
    ...references.routingRules.map((name) => `routing rule "${name}"`),
    ...(references.isDefault ? ['the installation default (settings)'] : []),
  ];
  return new AppError(
    'conflict',
    `This escalation policy is used by ${users.join(', ')}. Change them first.`,
    {
      routing_rules: references.routingRules,
      default: references.isDefault,
    },
  );
}
