import { ai, alerts, incidents, timeline } from '@firebreak/db';
import type { ServiceContext } from '../context';

/**
 * What one summary or post-mortem request may send the provider (docs/ai.md#prompts). The worker
 * condenses a timeline in windows of 120 entries, one provider call each: without a bound, a runaway
 * incident (an alert flapping all night) would make one request cost hundreds of calls. The start
 * (how it began) and the latest entries (where it stands) are what a summary needs.
 */
export const AI_PROMPT_LIMITS = { firstEntries: 40, latestEntries: 440, alerts: 50 } as const;

/** Everything an incident's AI prompt may contain: its own record, alerts and timeline — nothing else. */
export interface IncidentContext {
  incident: incidents.IncidentView;
  /** The newest received, at most `AI_PROMPT_LIMITS.alerts`. */
  alerts: alerts.AlertRow[];
  /** The first and the latest entries, oldest first (`AI_PROMPT_LIMITS`). */
  entries: timeline.TimelineRow[];
  /** How many entries between those two were left out. */
  omittedEntries: number;
}

export async function loadIncidentContext(
  ctx: ServiceContext,
  incidentId: string,
): Promise<IncidentContext | undefined> {
  const incident = await incidents.findIncidentView(ctx.sql, { id: incidentId });
  if (!incident) return undefined;
  const [linked, ends] = await Promise.all([
    alerts.listLatestAlertsOfIncident(ctx.sql, incidentId, AI_PROMPT_LIMITS.alerts),
    timeline.listTimelineEnds(
      ctx.sql,
      incidentId,
      AI_PROMPT_LIMITS.firstEntries,
      AI_PROMPT_LIMITS.latestEntries,
    ),
  ]);
  return { incident, alerts: linked, entries: ends.entries, omittedEntries: ends.omitted };
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
