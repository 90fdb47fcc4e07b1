import { maintenanceWindows } from '@firebreak/db';
import { maintenanceStatus } from '@firebreak/domain';
import { AppError } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { announceRelease, releaseHeldAlerts } from './release';

/**
 * `DELETE /api/v1/maintenance-windows/{id}` (docs/api.md#maintenance-windows). An active window ends
 * now and stays listed, as the record of the maintenance; a scheduled or ended one is removed. Either
 * way the alerts it holds are released in this transaction first — also an ended window's whose release
 * had not run yet, since removing the window would otherwise leave its alerts held forever.
 */
export async function deleteMaintenanceWindow(ctx: ServiceContext, id: string): Promise<void> {
  const outcome = await ctx.sql.begin(async (tx) => {
    const window = await maintenanceWindows.lockWindow(tx, id);
    if (!window) throw new AppError('not_found', `No maintenance window ${id}.`);
    const at = ctx.now();
    const release = await releaseHeldAlerts(tx, ctx, window, at);
    // Ending it needs ends_at after starts_at; a window that starts this very instant is removed instead.
    const endsNow = maintenanceStatus(window, at) === 'active' && window.starts_at < at;
    if (endsNow) await maintenanceWindows.endWindowNow(tx, id, at);
    else await maintenanceWindows.deleteWindow(tx, id);
    return { release, endsNow };
  });
  ctx.logger.info(
    { maintenance_window_id: id, outcome: outcome.endsNow ? 'ended' : 'removed' },
    'maintenance window deleted',
  );
  const { release } = outcome;
  const held = release.routed + release.heldByAnother + release.resolvedMeanwhile;
  if (outcome.endsNow || held > 0) announceRelease(ctx, release, 'delete');
}
