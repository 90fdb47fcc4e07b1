import type { alerts } from '@firebreak/db';
import type { Alert } from '@firebreak/schema';

export function presentAlert(row: alerts.AlertRow): Alert {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    severity: row.severity,
    status: row.status,
    external_id: row.external_id,
    source: row.source,
    labels: row.labels,
    annotations: row.annotations,
    started_at: row.started_at.toISOString(),
    received_at: row.received_at.toISOString(),
    fingerprint: row.fingerprint,
    ended_at: row.ended_at?.toISOString() ?? null,
    incident_id: row.incident_id,
    integration_id: row.integration_id,
    suppressed_by:
      row.maintenance_window_id !== null ? 'maintenance' : row.suppressed ? 'routing_rule' : null,
  };
}
