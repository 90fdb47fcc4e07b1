import { escalationPolicies } from '@firebreak/db';
import type { CreateEscalationPolicyInput, EscalationPolicy } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { policyConflicts, toNewTiers } from './escalation-tiers';
import { presentEscalationPolicy } from './present';
import { refusingConflicts } from './write-errors';

/** `POST /api/v1/escalation-policies` (admin): the policy and its tiers in one transaction. */
export async function createEscalationPolicy(
  ctx: ServiceContext,
  input: CreateEscalationPolicyInput,
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
    return (await escalationPolicies.findPolicy(tx, row.id))!;
  });
  const record = await refusingConflicts(write, policyConflicts(input.name));
  ctx.logger.info(
    { escalation_policy_id: record.id, tiers: record.tiers.length },
    'escalation policy created',
  );
  return presentEscalationPolicy(record);
}
