import { integrations } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { settleHeartbeatOnDisable } from '../heartbeats/settle';
import { integrationNotFound } from './queries';

/**
 * Its key stops working; its alerts stay, no longer linked to it. A heartbeat's missed alert is
 * resolved first, in the same transaction: once the row is gone nothing could find it again.
 */
export async function deleteIntegration(ctx: ServiceContext, id: string): Promise<void> {
  const deleted = await ctx.sql.begin(async (tx) => {
    await settleHeartbeatOnDisable(tx, ctx, id);
    return integrations.deleteIntegration(tx, id);
  });
  if (!deleted) throw integrationNotFound(id);
  ctx.logger.info({ integration_id: id }, 'integration deleted');
}
