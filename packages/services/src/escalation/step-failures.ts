import type { ServiceContext } from '../context';

/**
 * Escalations whose firing failed, by incident, with the error last logged for each — kept per
 * service context, which lives as long as the process's reconciler. Each is logged once per change of
 * state (it starts failing, its error changes, it fires again), like `FailureLog`, not once per pass:
 * a policy that cannot fire would otherwise log a line a second.
 */
const failingOf = new WeakMap<ServiceContext, Map<string, string>>();

// An incident whose escalation failed and then stopped some other way (acknowledged) never fires
// again to be forgotten: the oldest entries go past this many.
const MAX_REMEMBERED = 1000;

function failing(ctx: ServiceContext): Map<string, string> {
  let map = failingOf.get(ctx);
  if (!map) {
    map = new Map();
    failingOf.set(ctx, map);
  }
  return map;
}

/** Incidents whose last firing failed: a batch leaves them out, so they cannot fail it again. */
export function failingEscalations(ctx: ServiceContext): string[] {
  return [...failing(ctx).keys()];
}

export function noteEscalationFailed(ctx: ServiceContext, incidentId: string, error: unknown): void {
  const map = failing(ctx);
  const message = error instanceof Error ? error.message : String(error);
  if (map.get(incidentId) === message) return;
  map.delete(incidentId);
  map.set(incidentId, message);
  for (const oldest of map.keys()) {
    if (map.size <= MAX_REMEMBERED) break;
    map.delete(oldest);
  }
  ctx.logger.warn({ err: error, incident_id: incidentId }, 'escalation step failed');
}

export function noteEscalationRan(ctx: ServiceContext, incidentId: string): void {
  if (failing(ctx).delete(incidentId)) {
    ctx.logger.info({ incident_id: incidentId }, 'escalation step runs again');
  }
}
