import { ai, alerts, incidents, timeline } from '@firebreak/db';
import type { ServiceContext } from '../context';

/** Everything an incident's AI prompt may contain: its own record, alerts and timeline — nothing else. */
export interface IncidentContext {
  incident: incidents.IncidentView;
  alerts: alerts.AlertRow[];
  entries: timeline.TimelineRow[];
}

export async function loadIncidentContext(
  ctx: ServiceContext,
  incidentId: string,
): Promise<IncidentContext | undefined> {
  const incident = await incidents.findIncidentView(ctx.sql, { id: incidentId });
  if (!incident) return undefined;
  const [linked, entries] = await Promise.all([
    alerts.listAlertsOfIncident(ctx.sql, incidentId),
    timeline.listTimeline(ctx.sql, incidentId),
  ]);
  return { incident, alerts: linked, entries };
}

export type HandoffIncident = ai.HandoffIncidentRow;

/** Incidents that were opened, changed or resolved in a window, or are still open (the handoff). */
export async function loadHandoffIncidents(
  ctx: ServiceContext,
  since: Date,
  until: Date,
): Promise<HandoffIncident[]> {
  return ai.listHandoffIncidents(ctx.sql, since, until);
}
