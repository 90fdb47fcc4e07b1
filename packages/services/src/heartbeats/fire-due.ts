import { heartbeats, isDatabaseUnavailable } from '@firebreak/db';
import { recordAlertsInTransaction } from '../alerts/record-alerts';
import type { ServiceContext } from '../context';
import { announceIncident } from '../incidents/create';
import { heartbeatSource, missedAlert } from './missed-alert';

/**
 * The reconciler's pass (docs/integrations/heartbeats.md#exactly-once): raises the missed alert of every
 * enabled heartbeat whose deadline has passed. Each heartbeat is claimed and its alert recorded in ONE
 * transaction — the row is locked `for update skip locked`, the alert recorded and routed, the miss
 * marked, then commit — so any number of workers fire each deadline exactly once, a crash leaves
 * either both or neither, and no Redis is needed. Answers how many it fired.
 */
export async function fireDueHeartbeats(ctx: ServiceContext, limit = 500): Promise<number> {
  let fired = 0;
  // A heartbeat whose alert cannot be recorded is left for the next pass, not retried in a loop that
  // would keep every other heartbeat waiting behind it.
  const failed: string[] = [];
  while (fired < limit) {
    let claimedId: string | undefined;
    try {
      const outcome = await ctx.sql.begin(async (tx) => {
        const now = ctx.now();
        const row = await heartbeats.claimDueHeartbeat(tx, now, failed);
        if (!row) return undefined;
        claimedId = row.id;
        const recorded = await recordAlertsInTransaction(
          tx,
          ctx,
          heartbeatSource(row),
          [missedAlert(row, now)],
          now,
        );
        await heartbeats.markMissed(tx, row.id, now);
        return { row, now, ...recorded };
      });
      if (!outcome) break;
      fired += 1;
      for (const incident of outcome.opened) announceIncident(ctx, incident);
      ctx.metrics.alertsReceived.inc({ integration: 'heartbeat' });
      const alert = outcome.result.alerts[0];
      ctx.logger.warn(
        {
          integration_id: outcome.row.id,
          alert_id: alert?.id,
          incident_id: alert?.incident_id ?? null,
          late_by_ms: outcome.now.getTime() - outcome.row.heartbeat_next_due_at!.getTime(),
        },
        'heartbeat missed',
      );
    } catch (error) {
      if (!claimedId || isDatabaseUnavailable(error)) throw error;
      failed.push(claimedId);
      ctx.logger.error(
        { integration_id: claimedId, err: error },
        'heartbeat miss not recorded; retried next pass',
      );
    }
  }
  return fired;
}
