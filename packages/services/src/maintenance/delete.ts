import { maintenanceWindows } from '@firebreak/db';
import { maintenanceStatus } from '@firebreak/domain';
import { AppError } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { retryOnConflict } from '../retry-conflicts';
import { presentMaintenanceWindow } from './present';
import { announceRelease, releaseHeldAlerts } from './release';

/**
 * `DELETE /api/v1/maintenance-windows/{id}` (docs/api.md#maintenance-windows). An active window ends
 * now and stays listed, as the record of the maintenance; a scheduled or ended one is removed. Either
 * way the alerts it holds are released in this transaction first — also an ended window's whose release
 * had not run yet, since removing the window would otherwise leave its alerts held forever.
 */
export async function deleteMaintenanceWindow(
  ctx: ServiceContext,
  id: string,
  origin: ChangeOrigin = systemOrigin,
): Promise<void> {
  // Every window this needs is locked up front in one order (lockWindowForDelete), but a release pass
  // or a batch can still meet it in another (the alerts): a deadlock is retried like an intake batch.
  const outcome = await retryOnConflict(
    () =>
      ctx.sql.begin(async (tx) => {
        const at = ctx.now();
        const { window, others } = await maintenanceWindows.lockWindowForDelete(tx, id, at);
        if (!window) throw new AppError('not_found', `No maintenance window ${id}.`);
        const release = await releaseHeldAlerts(tx, ctx, window, others, at);
        // Ending it needs ends_at after starts_at; a window that starts this very instant is removed instead.
        const endsNow = maintenanceStatus(window, at) === 'active' && window.starts_at < at;
        if (endsNow) await maintenanceWindows.endWindowNow(tx, id, at);
        else await maintenanceWindows.deleteWindow(tx, id);
        const before = presentMaintenanceWindow(window, at);
        await recordAudit(tx, ctx, {
          origin,
          entity: 'maintenance_window',
          entityId: id,
          action: endsNow ? 'end' : 'delete',
          before,
          after: endsNow ? { ...before, ends_at: at.toISOString(), status: 'ended' } : null,
        });
        return { release, endsNow };
      }),
    (attempt, code) =>
      ctx.logger.warn(
        { attempt, code, maintenance_window_id: id },
        'maintenance window delete conflicted; retrying',
      ),
  );
  ctx.logger.info(
    { maintenance_window_id: id, outcome: outcome.endsNow ? 'ended' : 'removed' },
    'maintenance window deleted',
  );
  const { release } = outcome;
  const held = release.routed + release.heldByAnother + release.resolvedMeanwhile;
  if (outcome.endsNow || held > 0) announceRelease(ctx, release, 'delete');
}
