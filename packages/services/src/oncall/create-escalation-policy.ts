import { escalationPolicies } from '@firebreak/db';
import type { CreateEscalationPolicyInput, EscalationPolicy } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { policyConflicts, toNewTiers } from './escalation-tiers';
import { presentEscalationPolicy } from './present';
import { refusingConflicts } from './write-errors';

/** `POST /api/v1/escalation-policies` (admin): the policy and its tiers in one transaction. */
export async function createEscalationPolicy(
  ctx: ServiceContext,
  input: CreateEscalationPolicyInput,
  origin: ChangeOrigin = systemOrigin,
): Promise<EscalationPolicy> {
  const write = ctx.sql.begin(async (tx) => {
    const tiers = await toNewTiers(tx, input.tiers);
    const row = await escalationPolicies.insertPolicy(tx, {
      name: input.name,
      description: input.description,
      enabled: input.enabled,
      repeat: input.repeat,
      at: ctx.now(),
    });
    await escalationPolicies.replaceTiers(tx, row.id, tiers);
    const created = (await escalationPolicies.findPolicy(tx, row.id))!;
    await recordAudit(tx, ctx, {
      origin,
      entity: 'escalation_policy',
      entityId: row.id,
      action: 'create',
      before: null,
      after: presentEscalationPolicy(created),
    });
    return created;
  });
  const record = await refusingConflicts(write, policyConflicts(input.name));
  ctx.logger.info(
    { escalation_policy_id: record.id, tiers: record.tiers.length },
    'escalation policy created',
  );
  return presentEscalationPolicy(record);
}
