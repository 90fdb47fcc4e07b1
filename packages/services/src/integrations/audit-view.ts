import type { integrations } from '@firebreak/db';

/**
 * An integration as its audit row shows it. The key is kept as a field so that recordAudit redacts it,
 * and the intake URL is left out: it carries the key in its path.
 */
export function integrationAuditView(row: integrations.IntegrationRow) {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    enabled: row.enabled,
    key: row.key,
    escalation_policy_id: row.escalation_policy_id,
    labels: row.labels,
    interval_seconds: row.heartbeat_interval_seconds,
    grace_seconds: row.heartbeat_grace_seconds,
    severity: row.heartbeat_severity,
  };
}
