import { type alerts, outbox, type Queryable, storms, timeline } from '@firebreak/db';
import { moreSevere, type OpenStorm, stormTitle } from '@firebreak/domain';
import type { IncidentSeverity } from '@firebreak/schema';
import { intakeActor, linkAlert } from '../alerts/link';
import { chatJobs } from '../incidents/chat-jobs';
import { queueWebhookEvent } from '../outgoing-webhooks/queue-event';

/**
 * Links an alert that would have opened an incident to the storm incident instead (its row is locked
 * by the storm check): the usual `alert_linked` entry, the count, `all_alerts_resolved` cleared (a firing
 * alert joined, as when an alert joins a group), and the severity raised to the alert's when that is
 * higher, with a `severity_changed` entry. Raising does not page again: the storm was paged once, and
 * its escalation is already running or was acknowledged.
 */
export async function absorbIntoStorm(
  tx: Queryable,
  storm: OpenStorm,
  alert: alerts.AlertRow,
  would: { severity: IncidentSeverity; routingRuleId: string },
  at: Date,
): Promise<void> {
  const severity = moreSevere(storm.severity, would.severity);
  const title = { from: stormTitle(storm.absorbedAlerts), to: stormTitle(storm.absorbedAlerts + 1) };
  await storms.recordAbsorbed(tx, { id: storm.id, at, severity, title });
  await linkAlert(tx, alert, storm.id, { routingRuleId: would.routingRuleId, at });
  if (severity === storm.severity) return;
  const entry = await timeline.insertTimelineEntry(tx, {
    incidentId: storm.id,
    type: 'severity_changed',
    actor: intakeActor,
    data: { from: storm.severity, to: severity, alert_id: alert.id },
    at,
  });
  await outbox.insertOutboxRows(tx, [chatJobs.postEntry(storm.id, entry.id)]);
  await queueWebhookEvent(tx, 'incident.updated', storm.id, at);
}
