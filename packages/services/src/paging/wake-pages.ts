import { pageDeliveries } from '@firebreak/db';
import type { ServiceContext } from '../context';

/**
 * A `sending` row older than this was left by a worker that died mid-send (every sender gives up after
 * 10 s), and is sent again: see docs/paging.md#exactly-once for the one window where that repeats a page.
 */
export const STALE_SENDING_MS = 2 * 60_000;
/** A wake-up queued this long ago and not yet run was lost (Redis restarted empty): queue another. */
export const REWAKE_AFTER_MS = 10_000;

/**
 * The reconciler's pass (docs/paging.md#timers): due pages whose wake-up job is missing, stamped so that
 * no other reconciler queues them too. The caller queues one job per row, named by its wake-up count,
 * so a job Redis lost is replaced by a new one and never repeated by the same one.
 */
export async function wakeDuePages(
  ctx: ServiceContext,
  limit = 200,
): Promise<{ id: string; wakeups: number }[]> {
  const now = ctx.now();
  const interrupted = await pageDeliveries.releaseStaleSending(
    ctx.sql,
    new Date(now.getTime() - STALE_SENDING_MS),
    now,
  );
  for (const row of interrupted) {
    ctx.logger.warn(
      { delivery_id: row.id, incident_id: row.incident_id, user_id: row.user_id, method: row.method },
      'page delivery interrupted',
    );
  }
  return pageDeliveries.wakeDueDeliveries(ctx.sql, now, new Date(now.getTime() - REWAKE_AFTER_MS), limit);
}
