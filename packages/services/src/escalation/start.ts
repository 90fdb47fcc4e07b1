import { escalations, outbox, type Queryable } from '@firebreak/db';

/**
 * Starts an incident's escalation at once (tier 1 is notified at creation): the deadline row says "due
 * now", and an outbox row wakes a worker when the transaction commits.
 */
export async function startEscalation(
  tx: Queryable,
  incidentId: string,
  policyId: string,
  at: Date,
): Promise<void> {
  // Both at once: they go to PostgreSQL in one round trip (postgres.js pipelines a transaction's
  // queries), in this order.
  await Promise.all([
    escalations.insertEscalation(tx, { incidentId, policyId, dueAt: at }),
    outbox.insertOutboxRows(tx, [
      { name: 'escalation.check', payload: { incident_id: incidentId }, orderingKey: incidentId },
    ]),
  ]);
}
