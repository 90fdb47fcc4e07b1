import { escalations, incidents, outbox } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { wakeOutboxRelay } from '../outbox/wake-relay';
import { type EscalationOutcome, type FiredStep, fireHeldSteps, idleOutcome } from './fire-steps';

export type { EscalationOutcome } from './fire-steps';

/** Escalations one reconciler transaction holds and fires (docs/decisions.md#escalation-timers-under-load). */
export const ESCALATION_BATCH = 200;

/**
 * Fires an incident's escalation step if — and only if — its deadline has passed and the incident is
 * still triggered (docs/architecture.md#timers-are-rows). Unlike the reconciler's pass it waits for the
 * incident's locks: incident first, then escalation, the same order an acknowledgement takes them, so
 * the two never deadlock. The step claim makes sure each step notifies once, however often this runs.
 */
export async function runEscalation(ctx: ServiceContext, incidentId: string): Promise<EscalationOutcome> {
  const result = await ctx.sql.begin(async (tx) => {
    const now = ctx.now();
    const incident = await incidents.lockIncidentStatus(tx, incidentId);
    const row = await escalations.lockEscalation(tx, incidentId);
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

/**
 * The reconciler's pass (and the clock-driven tests'): fires every escalation whose deadline has passed,
 * `batchSize` per transaction. Escalations another transaction holds are left for the next pass.
 * Returns how many steps it fired.
 */
export async function runDueEscalations(ctx: ServiceContext, batchSize = ESCALATION_BATCH): Promise<number> {
  let fired = 0;
  for (;;) {
    const batch = await ctx.sql.begin(async (tx) => {
      const now = ctx.now();
      const [held] = await Promise.all([
        escalations.lockDueEscalations(tx, now, batchSize),
        // A NOTIFY from inside would make this commit wait for PostgreSQL's one notification lock
        // (migration 0021): the relay is woken after the commit instead.
        outbox.deferRelayWake(tx),
      ]);
      return { held: held.length, ...(await fireHeldSteps(ctx, tx, held, now)) };
    });
    if (batch.fired.length > 0) wakeOutboxRelay(ctx);
    reportFired(ctx, batch.fired);
    fired += batch.fired.length;
    if (batch.held < batchSize) return fired;
  }
}

/** After the commit: the line the runbooks name, and the counter. */
function reportFired(ctx: ServiceContext, fired: readonly FiredStep[]): void {
  for (const step of fired) {
    ctx.metrics.escalationsFired.inc();
    ctx.logger.info(
      {
        incident_id: step.incidentId,
        tier: step.tier,
        round: step.round,
        targets: step.targets.map((t) => t.id ?? t.name),
        late_by_ms: step.lateMs,
      },
      'escalation_triggered',
    );
  }
}
