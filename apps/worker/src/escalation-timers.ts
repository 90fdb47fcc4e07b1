import type { JobQueues } from '@firebreak/queue';
import {
  type EscalationOutcome,
  reportIfDatabaseUnavailable,
  runDueEscalations,
  runEscalation,
  type ServiceContext,
} from '@firebreak/services';

/**
 * Schedules the wake-up call for an escalation's next deadline. The id names the step, so however
 * many times this runs for one step, Redis holds one job for it.
 */
export async function scheduleWakeUp(
  ctx: ServiceContext,
  queues: JobQueues,
  incidentId: string,
  outcome: EscalationOutcome,
): Promise<void> {
  if (!outcome.nextDueAt || !outcome.nextStep) return;
  const { round, tier } = outcome.nextStep;
  await queues.enqueue(
    'escalation.check',
    { incident_id: incidentId },
    {
      jobId: `esc-${incidentId}-${round}-${tier}`,
      delayMs: outcome.nextDueAt.getTime() - ctx.now().getTime(),
    },
  );
}

/** The `escalation.check` job: fire if due, then schedule the next wake-up. */
export async function handleEscalationCheck(
  ctx: ServiceContext,
  queues: JobQueues,
  incidentId: string,
): Promise<void> {
  const outcome = await runEscalation(ctx, incidentId);
  await scheduleWakeUp(ctx, queues, incidentId, outcome).catch((error: Error) => {
    // The deadline is safe in PostgreSQL; the reconciler fires it if this wake-up never arrives.
    ctx.logger.warn({ incident_id: incidentId, err: error }, 'escalation wake-up not scheduled');
  });
}

export interface RunningReconciler {
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Every `intervalMs`, fires every escalation whose deadline has passed: the safety net for wake-up
 * jobs that Redis lost (restarted empty, failed over) or that never got scheduled (Redis was down).
 * Works without Redis at all; only the notifications it queues wait for the store.
 */
export function startEscalationReconciler(ctx: ServiceContext, intervalMs = 1000): RunningReconciler {
  let running: Promise<number> | undefined;
  const runOnce = () => {
    running ??= runDueEscalations(ctx)
      .catch((error: Error) => {
        // A database outage would otherwise log a line every second.
        if (!reportIfDatabaseUnavailable(ctx, error)) {
          ctx.logger.warn({ err: error }, 'escalation reconciler pass failed');
        }
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = setInterval(() => void runOnce(), intervalMs);
  return {
    runOnce,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
