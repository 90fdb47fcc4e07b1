import type { heartbeats } from '@firebreak/db';
import { type AlertInput, alertLimits } from '@firebreak/schema';
import type { IntakeSource } from '../alerts/intake-source';

/**
 * What a heartbeat's alerts are recorded under: the integration itself, so they deduplicate, route and
 * meet maintenance windows like the alerts its key would receive (docs/integrations/heartbeats.md).
 */
export function heartbeatSource(row: heartbeats.HeartbeatRow): IntakeSource {
  return {
    scope: row.id,
    integrationId: row.id,
    type: 'heartbeat',
    labels: row.labels,
    escalationPolicyId: row.escalation_policy_id,
  };
}

/** One stable identity per heartbeat: each miss and its recovery are the same alert. */
export function heartbeatExternalId(integrationId: string): string {
  return `heartbeat:${integrationId}`;
}

/** The deadline a ping at `at` sets: the next ping is expected within the interval, plus the grace. */
export function nextDeadline(row: heartbeats.HeartbeatRow, at: Date): Date {
  const seconds = row.heartbeat_interval_seconds + (row.heartbeat_grace_seconds ?? 0);
  return new Date(at.getTime() + seconds * 1000);
}

/** The alert a missed deadline raises. */
export function missedAlert(row: heartbeats.HeartbeatRow, at: Date): AlertInput {
  const lastPing = row.heartbeat_last_ping_at?.toISOString();
  const expected = `A ping is expected every ${row.heartbeat_interval_seconds} s (plus ${row.heartbeat_grace_seconds ?? 0} s of grace).`;
  return alertOf(row, {
    status: 'firing',
    description: `${lastPing ? `No ping since ${lastPing}.` : 'No ping received.'} ${expected}`,
    startedAt: row.heartbeat_next_due_at ?? at,
    endedAt: null,
  });
}

/** The same alert, resolved: `why` says what ended it (a ping, or the heartbeat being disabled). */
export function settledAlert(row: heartbeats.HeartbeatRow, at: Date, why: string): AlertInput {
  return alertOf(row, {
    status: 'resolved',
    description: `${why} at ${at.toISOString()}, after a miss at ${(row.heartbeat_missed_at ?? at).toISOString()}.`,
    startedAt: row.heartbeat_next_due_at ?? at,
    endedAt: at,
  });
}

function alertOf(
  row: heartbeats.HeartbeatRow,
  varying: Pick<AlertInput, 'status' | 'description' | 'startedAt' | 'endedAt'>,
): AlertInput {
  return {
    // Clipped like every source's texts: an integration's name may be longer than an alert's title.
    title: `Heartbeat missed: ${row.name}`.slice(0, alertLimits.titleLength),
    severity: row.heartbeat_severity ?? 'critical',
    externalId: heartbeatExternalId(row.id),
    fingerprint: null,
    source: 'heartbeat',
    labels: {},
    annotations: {},
    ...varying,
  };
}
