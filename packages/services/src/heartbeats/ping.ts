import { heartbeats } from '@firebreak/db';
import { AppError } from '@firebreak/schema';
import { recordAlertsInTransaction } from '../alerts/record-alerts';
import type { ServiceContext } from '../context';
import { heartbeatSource, nextDeadline, settledAlert } from './missed-alert';

/** What a ping answers: the heartbeat is up, and the next ping is due by `next_due_at` at the latest. */
export interface HeartbeatPing {
  status: 'up';
  last_ping_at: string;
  next_due_at: string;
}

/**
 * A ping of a heartbeat integration (`GET|POST /api/v1/intake/{key}`): the first arms it, each one
 * moves the deadline, and one after a miss resolves the missed alert. The row lock serialises a ping
 * with a reconciler firing the same deadline: whichever commits first, the other sees its result.
 */
export async function pingHeartbeat(ctx: ServiceContext, integrationId: string): Promise<HeartbeatPing> {
  const { ping, recovered } = await ctx.sql.begin(async (tx) => {
    const row = await heartbeats.lockHeartbeat(tx, integrationId);
    // Disabled or deleted between the key lookup and this lock: answered like an unknown key.
    if (!row?.enabled) throw new AppError('not_found', 'No such intake key.');
    // Read after the lock, so a ping that waited for a reconciler is stamped after the miss it ends.
    const at = ctx.now();
    const recovered = row.heartbeat_missed_at
      ? await recordAlertsInTransaction(
          tx,
          ctx,
          heartbeatSource(row),
          [settledAlert(row, at, 'Pinged again')],
          at,
        )
      : undefined;
    const nextDueAt = nextDeadline(row, at);
    await heartbeats.recordPing(tx, row.id, { at, nextDueAt });
    return {
      ping: { status: 'up' as const, last_ping_at: at.toISOString(), next_due_at: nextDueAt.toISOString() },
      recovered: recovered?.result.alerts[0],
    };
  });
  if (recovered) {
    ctx.logger.info(
      { integration_id: integrationId, alert_id: recovered.id, incident_id: recovered.incident_id },
      'heartbeat recovered',
    );
  }
  return ping;
}
