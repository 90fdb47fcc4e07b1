import { randomUUID } from 'node:crypto';
import { alerts, incidents, outbox, type Queryable, timeline } from '@firebreak/db';
import type { Actor } from '@firebreak/schema';
import { chatJobs } from '../incidents/chat-jobs';

/** The actor of everything alert intake writes on a timeline. */
export const intakeActor: Actor = { type: 'system', name: 'alert intake' };

/** Links an alert to an incident: the row, an `alert_linked` entry, and a post to the channel. */
export async function linkAlert(
  tx: Queryable,
  alert: alerts.AlertRow,
  incidentId: string,
  options: { routingRuleId: string | null; refired?: boolean; at: Date },
): Promise<void> {
  // The entry's id is chosen here so that the three writes need not wait for each other: they go to
  // PostgreSQL in one round trip (postgres.js pipelines a transaction's queries), in this order.
  const entry = alertLinkedEntry(alert, incidentId, options);
  await Promise.all([
    alerts.setAlertRouting(tx, alert.id, {
      incidentId,
      routingRuleId: options.routingRuleId,
      suppressed: false,
    }),
    timeline.insertTimelineEntry(tx, entry),
    outbox.insertOutboxRows(tx, [chatJobs.postEntry(incidentId, entry.id)]),
  ]);
}

/** The `alert_linked` entry of a link (its id chosen here, for the channel's post that names it). */
export function alertLinkedEntry(
  alert: alerts.AlertRow,
  incidentId: string,
  options: { refired?: boolean; at: Date },
): timeline.InsertTimelineEntry & { id: string } {
  return {
    id: randomUUID(),
    incidentId,
    type: 'alert_linked',
    actor: intakeActor,
    data: {
      alert_id: alert.id,
      title: alert.title,
      severity: alert.severity,
      source: alert.source,
      external_id: alert.external_id,
      ...(options.refired ? { refired: true } : {}),
    },
    at: options.at,
  };
}

/**
 * When every alert linked to an incident is resolved, the incident is flagged (not resolved):
 * `all_alerts_resolved`, an `alerts_all_resolved` entry, and a notice in the channel (docs/api.md#incidents).
 */
export async function flagIfAllAlertsResolved(tx: Queryable, incidentId: string, at: Date): Promise<void> {
  // Lock first, count after: two requests resolving the incident's last two alerts at once then queue
  // here, and the second one counts after the first committed (counting first, each would still see
  // the other's alert firing, and nobody would set the flag).
  const incident = await incidents.lockIncident(tx, { id: incidentId });
  if (!incident || incident.status === 'resolved') return;
  if ((await alerts.countFiringAlertsOfIncident(tx, incidentId)) > 0) return;
  if (!(await incidents.setAllAlertsResolved(tx, incidentId, true, at))) return;
  const entry = await timeline.insertTimelineEntry(tx, {
    incidentId,
    type: 'alerts_all_resolved',
    actor: intakeActor,
    data: {},
    at,
  });
  await outbox.insertOutboxRows(tx, [chatJobs.postEntry(incidentId, entry.id)]);
}
