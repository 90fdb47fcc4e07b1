import { integrations } from '@firebreak/db';
import { AppError, type Integration, type UpdateIntegrationInput } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { settleHeartbeatOnDisable } from '../heartbeats/settle';
import { integrationAuditView } from './audit-view';
import { requireEscalationPolicy } from './checks';
import { type IntegrationAudience, presentIntegration } from './present';
import { integrationNotFound } from './queries';

const heartbeatFields = ['interval_seconds', 'grace_seconds', 'severity'] as const;

/** Changes what is given. Heartbeat fields belong to heartbeats only (400 for another type). */
export async function updateIntegration(
  ctx: ServiceContext,
  id: string,
  input: UpdateIntegrationInput,
  audience: IntegrationAudience,
  origin: ChangeOrigin = systemOrigin,
): Promise<Integration> {
  const existing = await integrations.findIntegration(ctx.sql, id);
  if (!existing) throw integrationNotFound(id);
  if (existing.type !== 'heartbeat') {
    const given = heartbeatFields.filter((field) => input[field] !== undefined);
    if (given.length > 0) {
      throw new AppError(
        'validation_failed',
        'The request is not valid.',
        given.map((path) => ({ path, message: 'only a heartbeat integration has this field' })),
      );
    }
  }
  await requireEscalationPolicy(ctx, input.escalation_policy_id);
  const row = await ctx.sql.begin(async (tx) => {
    // Turning a heartbeat off resolves its missed alert in the same transaction: nobody expects its
    // pings any more (docs/integrations/heartbeats.md).
    if (existing.type === 'heartbeat' && input.enabled === false) await settleHeartbeatOnDisable(tx, ctx, id);
    const before = await integrations.findIntegration(tx, id);
    const after = await integrations.updateIntegration(
      tx,
      id,
      {
        name: input.name,
        enabled: input.enabled,
        escalationPolicyId: input.escalation_policy_id,
        labels: input.labels,
        intervalSeconds: input.interval_seconds,
        graceSeconds: input.grace_seconds,
        severity: input.severity,
      },
      ctx.now(),
    );
    if (before && after) {
      await recordAudit(tx, ctx, {
        origin,
        entity: 'integration',
        entityId: id,
        action: 'update',
        before: integrationAuditView(before),
        after: integrationAuditView(after),
      });
    }
    return after;
  });
  if (!row) throw integrationNotFound(id);
  ctx.logger.info({ integration_id: id }, 'integration updated');
  return presentIntegration({ ...row, last_alert_at: existing.last_alert_at }, audience);
}
