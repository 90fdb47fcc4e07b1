import type { ServiceContext } from '../context';
import type { FiredStep } from './fire-steps';

/** After the commit: the line the runbooks name, and the counter. */
export function reportFired(ctx: ServiceContext, fired: readonly FiredStep[]): void {
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
