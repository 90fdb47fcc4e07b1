import { escalationPolicies } from '@firebreak/db';
import type { EscalationPolicy, UpdateEscalationPolicyInput } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { policyConflicts, toNewTiers } from './escalation-tiers';
import { presentEscalationPolicy } from './present';
import { notFound, refusingConflicts } from './write-errors';

/** `PATCH /api/v1/escalation-policies/{id}` (admin). `tiers`, when given, replaces them all. */
export async function updateEscalationPolicy(
  ctx: ServiceContext,
  id: string,
  input: UpdateEscalationPolicyInput,
  origin: ChangeOrigin = systemOrigin,
): Promise<EscalationPolicy> {
  const write = ctx.sql.begin(async (tx) => {
    if (!(await escalationPolicies.lockPolicy(tx, id))) throw notFound('escalation policy', id);
    const before = (await escalationPolicies.findPolicy(tx, id))!;
    const tiers = input.tiers ? await toNewTiers(tx, input.tiers) : undefined;
    const { tiers: _, ...fields } = input;
    const changes = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    await escalationPolicies.updatePolicy(tx, id, changes, ctx.now());
    if (tiers) await escalationPolicies.replaceTiers(tx, id, tiers);
    const after = (await escalationPolicies.findPolicy(tx, id))!;
    await recordAudit(tx, ctx, {
      origin,
      entity: 'escalation_policy',
      entityId: id,
      action: 'update',
      before: presentEscalationPolicy(before),
      after: presentEscalationPolicy(after),
    });
    return after;
  });
  const record = await refusingConflicts(write, policyConflicts(input.name));
  ctx.logger.info({ escalation_policy_id: id, fields: Object.keys(input) }, 'escalation policy changed');
  return presentEscalationPolicy(record);
}
