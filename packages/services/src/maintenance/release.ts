import {
  alerts,
  type incidents,
  isDatabaseUnavailable,
  maintenanceWindows,
  routingRules,
  type TransactionSql,
} from '@firebreak/db';
import { byEvaluationOrder, holdingWindow } from '@firebreak/domain';
import { routeAlert } from '../alerts/route-alert';
import type { ServiceContext } from '../context';
import { announceIncident } from '../incidents/create';

/** What releasing one window did, for its log line and the incidents to announce after the commit. */
export interface Release {
  window: maintenanceWindows.MaintenanceWindowRow;
  /** Still firing, routed now as if they had just arrived. */
  routed: number;
  /** Still firing and matched by another active window: held on, by that one. */
  heldByAnother: number;
  /** Resolved during the window: the hold is simply lifted. */
  resolvedMeanwhile: number;
  opened: incidents.IncidentRow[];
}

/**
 * Releases the alerts a window held back (docs/api.md#maintenance-windows), inside the caller's
 * transaction, which has locked the window and, before it, `others`: the other windows active now, in
 * the order intake picks one. Windows are always locked before alerts, so this never waits for a
 * window while holding alerts a concurrent delete or batch needs. A problem that outlives the
 * maintenance must not be missed: each alert still firing goes through the current routing rules, with
 * the policy of the integration it came through as the fallback, unless another active window matches it.
 */
export async function releaseHeldAlerts(
  tx: TransactionSql,
  ctx: ServiceContext,
  window: maintenanceWindows.MaintenanceWindowRow,
  others: readonly maintenanceWindows.MaintenanceWindowRow[],
  at: Date,
): Promise<Release> {
  const held = await maintenanceWindows.lockHeldAlerts(tx, window.id);
  const release: Release = { window, routed: 0, heldByAnother: 0, resolvedMeanwhile: 0, opened: [] };
  if (held.length === 0) return release;
  const rules = (await routingRules.listRoutingRules(tx, { enabledOnly: true })).sort(byEvaluationOrder);

  const toRoute: maintenanceWindows.HeldAlertRow[] = [];
  const lifted: string[] = [];
  for (const alert of held) {
    const another = alert.status === 'firing' ? holdingWindow(others, alert) : undefined;
    if (another) {
      await alerts.holdForMaintenance(tx, alert.id, another.id);
      release.heldByAnother += 1;
    } else {
      lifted.push(alert.id);
      if (alert.status === 'firing') toRoute.push(alert);
      else release.resolvedMeanwhile += 1;
    }
  }
  // Lifted first: routing that matches no rule leaves an alert's row untouched.
  await maintenanceWindows.clearHolds(tx, lifted);
  for (const alert of toRoute) {
    const fresh = { ...alert, maintenance_window_id: null };
    const outcome = await routeAlert(tx, ctx, fresh, rules, at, alert.integration_escalation_policy_id);
    release.routed += 1;
    if (outcome.kind === 'opened') release.opened.push(outcome.incident);
  }
  return release;
}

/** After the commit: the incidents' own announcements, and one line saying why they opened late. */
export function announceRelease(ctx: ServiceContext, release: Release, endedBy: 'schedule' | 'delete'): void {
  for (const incident of release.opened) announceIncident(ctx, incident);
  ctx.logger.info(
    {
      maintenance_window_id: release.window.id,
      ended_by: endedBy,
      routed: release.routed,
      incidents_created: release.opened.length,
      incident_ids: release.opened.map((incident) => incident.id),
      held_by_another_window: release.heldByAnother,
      resolved_meanwhile: release.resolvedMeanwhile,
    },
    'maintenance window ended: alerts released',
  );
}

// Bounds one pass; the next pass, a second later, goes on with the rest.
const WINDOWS_PER_PASS = 100;

/**
 * The release timer (docs/architecture.md#timers-are-rows): releases every window that has ended and
 * is not released yet, one transaction per window. Runs every second in each worker; each window is
 * claimed `for update skip locked`, so however many workers run, each window is released once. Answers
 * how many windows this pass released.
 */
export async function releaseEndedWindows(ctx: ServiceContext): Promise<number> {
  let released = 0;
  // Windows whose release failed in this pass: the others are not held up behind them (the next pass
  // tries them again, e.g. after a deadlock with a concurrent batch).
  const failed: string[] = [];
  while (released + failed.length < WINDOWS_PER_PASS) {
    let claimed: string | undefined;
    try {
      const release = await ctx.sql.begin(async (tx) => {
        const at = ctx.now();
        const window = await maintenanceWindows.claimEndedWindow(tx, at, failed);
        if (!window) return undefined;
        claimed = window.id;
        const others = (await maintenanceWindows.listActiveWindows(tx, at)).filter((w) => w.id !== window.id);
        const result = await releaseHeldAlerts(tx, ctx, window, others, at);
        await maintenanceWindows.markReleased(tx, window.id, at);
        return result;
      });
      if (!release) break;
      released += 1;
      announceRelease(ctx, release, 'schedule');
    } catch (error) {
      if (!claimed || isDatabaseUnavailable(error)) throw error;
      failed.push(claimed);
      ctx.logger.warn({ maintenance_window_id: claimed, err: error }, 'maintenance window release failed');
    }
  }
  return released;
}
