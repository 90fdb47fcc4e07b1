import { escalationPolicies } from '@firebreak/db';
import { AppError } from '@firebreak/schema';
import type { ServiceContext } from '../context';

/**
 * An integration may only name a policy that exists: an incident paged through it would otherwise fail
 * to insert, losing the alert's page.
 */
export async function requireEscalationPolicy(
  ctx: ServiceContext,
  id: string | null | undefined,
): Promise<void> {
  if (!id) return;
  if (!(await escalationPolicies.policyExists(ctx.sql, id))) {
    throw new AppError('validation_failed', 'The request is not valid.', [
      { path: 'escalation_policy_id', message: 'no escalation policy has this id' },
    ]);
  }
}
