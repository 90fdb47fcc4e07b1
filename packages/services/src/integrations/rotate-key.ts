import { integrations } from '@firebreak/db';
import type { Integration } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { integrationAuditView } from './audit-view';
import { generateIntakeKey } from './keys';
import { type IntegrationAudience, presentIntegration } from './present';
import { integrationNotFound } from './queries';

/**
 * A new intake key; the old one stops working as soon as this commits (keyed intake reads the key on
 * every request). Alerts keep deduplicating across the change: their scope is the integration's id.
 */
export async function rotateIntegrationKey(
  ctx: ServiceContext,
  id: string,
  audience: IntegrationAudience,
  origin: ChangeOrigin = systemOrigin,
): Promise<Integration> {
  const row = await ctx.sql.begin(async (tx) => {
    const before = await integrations.findIntegration(tx, id);
    const after = await integrations.setIntegrationKey(tx, id, generateIntakeKey(), ctx.now());
    if (!before || !after) return undefined;
    await recordAudit(tx, ctx, {
      origin,
      entity: 'integration',
      entityId: id,
      action: 'rotate',
      before: integrationAuditView(before),
      after: integrationAuditView(after),
    });
    return after;
  });
  if (!row) throw integrationNotFound(id);
  ctx.logger.info({ integration_id: id }, 'integration key rotated');
  const current = await integrations.findIntegration(ctx.sql, id);
  return presentIntegration(current ?? { ...row, last_alert_at: null }, audience);
}
