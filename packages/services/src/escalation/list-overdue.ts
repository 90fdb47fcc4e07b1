import { escalations } from '@firebreak/db';
import type { ServiceContext } from '../context';

/**
 * Incidents whose escalation step is still due `graceMs` after its deadline, oldest first: a pass
 * skipped it because another transaction held it (an intake absorbing a storm's alerts hands the storm
 * incident's row lock from one transaction to the next), or its firing failed. The reconciler fires
 * these through the waiting path (docs/decisions.md#escalation-timers-under-load).
 */
export async function listOverdueEscalations(
  ctx: ServiceContext,
  graceMs: number,
  limit: number,
): Promise<string[]> {
  return escalations.listDueEscalations(ctx.sql, new Date(ctx.now().getTime() - graceMs), limit);
}
