import { incidents, timeline } from '@firebreak/db';
import type { Incident, TimelineEntry } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { presentIncident, presentTimelineEntry } from '../incidents/present';

/** How many of the latest timeline entries `/incident status` shows. */
export const STATUS_ENTRIES = 5;

/** What `/incident status` answers: the incident and its latest entries, oldest first. */
export interface IncidentStatusView {
  incident: Incident;
  latest: TimelineEntry[];
}

export async function readIncidentStatus(
  ctx: ServiceContext,
  incidentId: string,
): Promise<IncidentStatusView | undefined> {
  const view = await incidents.findIncidentView(ctx.sql, { id: incidentId });
  if (!view) return undefined;
  const { entries } = await timeline.listTimelineEnds(ctx.sql, incidentId, 0, STATUS_ENTRIES);
  return { incident: presentIncident(view), latest: entries.map(presentTimelineEntry) };
}
