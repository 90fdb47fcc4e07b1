import type { incidents, storms, timeline } from '@firebreak/db';
import type { Incident, IncidentStorm, TimelineEntry } from '@firebreak/schema';

export function presentIncident(view: incidents.IncidentView): Incident {
  return {
    id: view.id,
    number: view.number,
    title: view.title,
    description: view.description,
    severity: view.severity,
    status: view.status,
    created_at: view.created_at.toISOString(),
    acknowledged_at: view.acknowledged_at?.toISOString() ?? null,
    resolved_at: view.resolved_at?.toISOString() ?? null,
    commander: view.commander_id
      ? { id: view.commander_id, name: view.commander_name ?? '', email: view.commander_email ?? '' }
      : null,
    chat_channel: view.chat_channels[0]
      ? { id: view.chat_channels[0].id, name: view.chat_channels[0].name }
      : null,
    chat_channels: view.chat_channels,
    escalation_policy_id: view.escalation_policy_id,
    next_tier: view.next_tier,
    alert_count: view.alert_count,
    all_alerts_resolved: view.all_alerts_resolved,
    mttr_seconds: view.mttr_seconds,
    source: view.source,
    storm: presentStorm(view),
  };
}

/**
 * The storm part of an incident (docs/api.md#storm-mode): null but on a storm's incident.
 */
function presentStorm(view: storms.StormColumns): IncidentStorm | null {
  if (!view.storm_started_at) return null;
  return {
    absorbed_alerts: view.storm_absorbed_alerts ?? 0,
    started_at: view.storm_started_at.toISOString(),
    last_absorbed_at: (view.storm_last_absorbed_at ?? view.storm_started_at).toISOString(),
    calmed_at: view.storm_calmed_at?.toISOString() ?? null,
  };
}

export function presentTimelineEntry(row: timeline.TimelineRow): TimelineEntry {
  return {
    id: row.id,
    incident_id: row.incident_id,
    type: row.type,
    created_at: row.created_at.toISOString(),
    actor: {
      type: row.actor_type,
      ...(row.actor_id ? { id: row.actor_id } : {}),
      ...(row.actor_name ? { name: row.actor_name } : {}),
    },
    data: row.data,
  };
}
