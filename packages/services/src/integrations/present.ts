import type { integrations } from '@firebreak/db';
import type { HeartbeatState, Integration } from '@firebreak/schema';
import { maskKey } from './keys';

/** How an integration is shown: the whole key to admins only, and the URL senders post to. */
export interface IntegrationAudience {
  revealKey: boolean;
  /** Where senders reach this installation (`PUBLIC_URL`), without a trailing slash. */
  baseUrl: string;
}

export function intakeUrl(baseUrl: string, key: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/api/v1/intake/${key}`;
}

export function presentIntegration(
  row: integrations.IntegrationRow & { last_alert_at?: Date | null },
  audience: IntegrationAudience,
): Integration {
  const key = audience.revealKey ? row.key : maskKey(row.key);
  const isHeartbeat = row.type === 'heartbeat';
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    enabled: row.enabled,
    key,
    intake_url: intakeUrl(audience.baseUrl, key),
    escalation_policy_id: row.escalation_policy_id,
    labels: row.labels,
    created_at: row.created_at.toISOString(),
    last_alert_at: row.last_alert_at?.toISOString() ?? null,
    interval_seconds: row.heartbeat_interval_seconds,
    grace_seconds: row.heartbeat_grace_seconds,
    severity: row.heartbeat_severity,
    heartbeat: isHeartbeat ? heartbeatState(row) : null,
  };
}

function heartbeatState(row: integrations.IntegrationRow): HeartbeatState {
  const status =
    row.heartbeat_missed_at !== null ? 'missed' : row.heartbeat_last_ping_at === null ? 'waiting' : 'up';
  return {
    status,
    last_ping_at: row.heartbeat_last_ping_at?.toISOString() ?? null,
    next_due_at: row.heartbeat_next_due_at?.toISOString() ?? null,
  };
}
