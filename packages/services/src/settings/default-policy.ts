import { escalationPolicies, settingKeys, settings } from '@firebreak/db';
import { AppError } from '@firebreak/schema';
import type { ServiceContext } from '../context';

/** The policy incidents get when their routing rule names none (docs/api.md#on-call). */
export async function setDefaultEscalationPolicy(
  ctx: ServiceContext,
  policyId: string | null,
): Promise<void> {
  if (policyId === null) {
    await settings.deleteSetting(ctx.sql, settingKeys.defaultEscalationPolicy);
  } else {
    if (!(await escalationPolicies.findPolicy(ctx.sql, policyId))) {
      throw new AppError('validation_failed', 'The request is not valid.', [
        { path: 'default_escalation_policy_id', message: 'no escalation policy has this id' },
      ]);
    }
    await settings.putSetting(ctx.sql, settingKeys.defaultEscalationPolicy, policyId);
  }
  ctx.logger.info({ policy_id: policyId }, 'default escalation policy changed');
}
