import { escalations, incidents } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { type EscalationOutcome, fireHeldSteps, idleOutcome } from './fire-steps';
import { reportFired } from './report-fired';

/**
 * Fires an incident's escalation step if — and only if — its deadline has passed and the incident is
 * still triggered (docs/architecture.md#timers-are-rows). Unlike the reconciler's pass it waits for the
 * incident's locks: incident first, then escalation, the same order an acknowledgement takes them, so
 * the two never deadlock. The step claim makes sure each step notifies once, however often this runs.
 */
export async function runEscalation(ctx: ServiceContext, incidentId: string): Promise<EscalationOutcome> {
  const result = await ctx.sql.begin(async (tx) => {
    const incident = await incidents.lockIncidentStatus(tx, incidentId);
    const row = await escalations.lockEscalation(tx, incidentId);
    // After the locks, which a storm's intake may hold a while: the step fires, and is late, from now.
    const now = ctx.now();
    if (!incident || !row?.next_due_at) return { outcome: idleOutcome(row), fired: [] };
    if (incident.status === 'triggered' && row.next_due_at > now)
      return { outcome: idleOutcome(row), fired: [] };
    const held = { ...row, next_due_at: row.next_due_at, status: incident.status };
    const batch = await fireHeldSteps(ctx, tx, [held], now);
    return { outcome: batch.outcomes.get(incidentId) ?? idleOutcome(), fired: batch.fired };
  });
  reportFired(ctx, result.fired);
  return result.outcome;
}
