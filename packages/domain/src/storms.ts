import { type IncidentSeverity, incidentSeverities } from '@firebreak/schema';

/**
 * Storm mode's rules (docs/api.md#storm-mode): when more incidents opened from alerts within the window
 * than the threshold, the next would-be incident joins one storm incident instead, until the storm calms.
 */

/** What the storm check read in one query: the settings, the recent openings and the current storm. */
export interface StormCheck {
  enabled: boolean;
  thresholdIncidents: number;
  windowMinutes: number;
  calmMinutes: number;
  /** Incidents alerts opened within the window, the storm incident not counted (counted up to the threshold). */
  recentIncidents: number;
  storm: OpenStorm | null;
}

export interface OpenStorm {
  id: string;
  status: 'triggered' | 'acknowledged' | 'resolved';
  severity: IncidentSeverity;
  title: string;
  resolvedAt: Date | null;
  lastAbsorbedAt: Date;
  absorbedAlerts: number;
}

export type StormDecision =
  /** No storm: the incident opens as it would have. `calm` is a storm that ended and must be closed. */
  | { kind: 'open'; calm: StormCalm | null }
  | { kind: 'absorb'; storm: OpenStorm }
  | { kind: 'start'; calm: StormCalm | null };

export interface StormCalm {
  storm: OpenStorm;
  calmedAt: Date;
  reason: 'quiet' | 'resolved';
}

/** When the storm ended, if it has by `at`: at its incident's resolution, or `calm` after its last alert. */
export function stormCalm(storm: OpenStorm, calmMinutes: number, at: Date): StormCalm | null {
  if (storm.status === 'resolved') {
    return { storm, calmedAt: storm.resolvedAt ?? at, reason: 'resolved' };
  }
  const quietFrom = new Date(storm.lastAbsorbedAt.getTime() + calmMinutes * 60_000);
  return quietFrom.getTime() <= at.getTime() ? { storm, calmedAt: quietFrom, reason: 'quiet' } : null;
}

/** What to do with an incident an alert is about to open. */
export function decideStorm(check: StormCheck, at: Date): StormDecision {
  if (!check.enabled) return { kind: 'open', calm: null };
  const calm = check.storm ? stormCalm(check.storm, check.calmMinutes, at) : null;
  if (check.storm && !calm) return { kind: 'absorb', storm: check.storm };
  // "More than N within M minutes": with N already open, the next one is the storm.
  if (check.recentIncidents >= check.thresholdIncidents) return { kind: 'start', calm };
  return { kind: 'open', calm };
}

/** The storm incident's title, kept current while nobody has renamed it. */
export function stormTitle(absorbedAlerts: number): string {
  return `Alert storm: ${absorbedAlerts} alert${absorbedAlerts === 1 ? '' : 's'}`;
}

/** The more severe of two incident severities (critical first). */
export function moreSevere(a: IncidentSeverity, b: IncidentSeverity): IncidentSeverity {
  return incidentSeverities.indexOf(a) <= incidentSeverities.indexOf(b) ? a : b;
}
