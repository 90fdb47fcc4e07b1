import { heartbeats, type TransactionSql } from '@firebreak/db';
import { recordAlertsInTransaction } from '../alerts/record-alerts';
import type { ServiceContext } from '../context';
import { heartbeatSource, settledAlert } from './missed-alert';

/**
 * Call in the transaction that disables or deletes a heartbeat integration (before the delete): a
 * missed alert still firing is resolved, since nobody expects pings any more, and the heartbeat goes
 * back to waiting for a first ping. Re-enabled, it raises nothing until a ping arms it again, so a
 * deadline that passed while it was disabled never fires (docs/integrations/heartbeats.md). Other
 * integrations and unknown ids are left alone.
 */
export async function settleHeartbeatOnDisable(
  tx: TransactionSql,
  ctx: ServiceContext,
  integrationId: string,
): Promise<void> {
  const row = await heartbeats.lockHeartbeat(tx, integrationId);
  if (!row) return;
  if (row.heartbeat_missed_at) {
    const at = ctx.now();
    // A resolution opens nothing, so there is no incident to announce after the commit.
    await recordAlertsInTransaction(
      tx,
      ctx,
      heartbeatSource(row),
      [settledAlert(row, at, 'Heartbeat disabled')],
      at,
    );
  }
  await heartbeats.disarm(tx, row.id);
}

/**
 * The reconciler's safety net for a disable that reached the row without `settleHeartbeatOnDisable`
 * (a direct SQL change, a forgotten call): settles every disabled heartbeat still holding a deadline
 * or a miss, one transaction each. Answers how many it settled.
 */
export async function settleDisabledHeartbeats(ctx: ServiceContext, limit = 100): Promise<number> {
  let settled = 0;
  while (settled < limit) {
    const done = await ctx.sql.begin(async (tx) => {
      const id = await heartbeats.claimUnsettledDisabledHeartbeat(tx);
      if (id) await settleHeartbeatOnDisable(tx, ctx, id);
      return id !== undefined;
    });
    if (!done) break;
    settled += 1;
  }
  return settled;
}
