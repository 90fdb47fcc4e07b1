import type { ServiceContext } from '../context';
import { updateSettings } from './update';

/** The policy incidents get when their routing rule names none (docs/api.md#on-call). */
export function setDefaultEscalationPolicy(ctx: ServiceContext, policyId: string | null): Promise<void> {
  return updateSettings(ctx, { default_escalation_policy_id: policyId });
}
