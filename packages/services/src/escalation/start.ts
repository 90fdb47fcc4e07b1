import { escalations, type Queryable } from '@firebreak/db';

/**
 * Starts an incident's escalation at once (tier 1 is notified at creation): the deadline row says "due
 * now". No job is needed to fire it: the reconciler listens for the wake-up every opening sends after
 * its commit (`announceIncident`) and fires what is due, or at its next look within a second
 * (docs/decisions.md#escalation-timers-under-load).
 */
export async function startEscalation(
  tx: Queryable,
  incidentId: string,
  policyId: string,
  at: Date,
): Promise<void> {
  await escalations.insertEscalation(tx, { incidentId, policyId, dueAt: at });
}

/** `startEscalation` for incidents opened together, in one statement. */
export async function startEscalations(
  tx: Queryable,
  started: ReadonlyArray<{ incidentId: string; policyId: string; at: Date }>,
): Promise<void> {
  await escalations.insertEscalations(
    tx,
    started.map(({ incidentId, policyId, at }) => ({ incidentId, policyId, dueAt: at })),
  );
}
