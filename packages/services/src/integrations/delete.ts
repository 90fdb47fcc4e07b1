import { integrations } from '@firebreak/db';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { settleHeartbeatOnDisable } from '../heartbeats/settle';
import { integrationAuditView } from './audit-view';
import { integrationNotFound } from './queries';

/**
 * Its key stops working; its alerts stay, no longer linked to it. A heartbeat's missed alert is
 * resolved first, in the same transaction: once the row is gone nothing could find it again.
 */
export async function deleteIntegration(
  ctx: ServiceContext,
  id: string,
  origin: ChangeOrigin = systemOrigin,
): Promise<void> {
  const deleted = await ctx.sql.begin(async (tx) => {
    await settleHeartbeatOnDisable(tx, ctx, id);
    const before = await integrations.findIntegration(tx, id);
    if (!before || !(await integrations.deleteIntegration(tx, id))) return false;
    await recordAudit(tx, ctx, {
      origin,
      entity: 'integration',
      entityId: id,
      action: 'delete',
      before: integrationAuditView(before),
      after: null,
    });
    return true;
  });
  if (!deleted) throw integrationNotFound(id);
  ctx.logger.info({ integration_id: id }, 'integration deleted');
}
