import { escalations, isDatabaseUnavailable, outbox } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { wakeOutboxRelay } from '../outbox/wake-relay';
import { retryCutOff } from '../retry-cut-off';
import { fireSeparately } from './fire-separately';
import { fireHeldSteps } from './fire-steps';
import { reportFired } from './report-fired';
import { failingEscalations } from './step-failures';

export type { EscalationOutcome } from './fire-steps';
export { runEscalation } from './run-escalation';

/** Escalations one reconciler transaction holds and fires (docs/decisions.md#escalation-timers-under-load). */
export const ESCALATION_BATCH = 200;

/**
 * The reconciler's pass (and the clock-driven tests'): fires every escalation whose deadline has passed,
 * `batchSize` per transaction. Escalations another transaction holds are left for the next pass. A
 * batch that fails (short of a database outage) is fired again one escalation at a time, so one step
 * that cannot fire holds back no other; the ones that failed alone are left out of later batches.
 * Returns how many steps it fired.
 */
export async function runDueEscalations(ctx: ServiceContext, batchSize = ESCALATION_BATCH): Promise<number> {
  let fired = 0;
  for (;;) {
    let heldIds: string[] = [];
    let batch: Awaited<ReturnType<typeof fireHeldSteps>> & { held: number };
    try {
      // Cut off by a failover, the batch runs again: steps it did commit are no longer due (their
      // claims and next deadlines committed with them), the others fire now, each once.
      batch = await retryCutOff(ctx, 'escalation pass', () =>
        ctx.sql.begin(async (tx) => {
          const now = ctx.now();
          const [held] = await Promise.all([
            escalations.lockDueEscalations(tx, now, batchSize, failingEscalations(ctx)),
            // A NOTIFY from inside would make this commit wait for PostgreSQL's one notification lock
            // (migration 0021): the relay is woken after the commit instead.
            outbox.deferRelayWake(tx),
          ]);
          heldIds = held.map((row) => row.incident_id);
          return { held: held.length, ...(await fireHeldSteps(ctx, tx, held, now)) };
        }),
      );
    } catch (error) {
      if (heldIds.length === 0 || isDatabaseUnavailable(error)) throw error;
      // Rare once a step that failed alone is left out of batches: worth a line each time.
      ctx.logger.warn({ err: error, escalations: heldIds.length }, 'escalation batch failed');
      fired += await fireSeparately(ctx, heldIds);
      if (heldIds.length < batchSize) return fired;
      continue;
    }
    if (batch.fired.length > 0) wakeOutboxRelay(ctx);
    reportFired(ctx, batch.fired);
    fired += batch.fired.length;
    if (batch.held < batchSize) return fired;
  }
}
