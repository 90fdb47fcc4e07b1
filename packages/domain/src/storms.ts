import { type IncidentSeverity, incidentSeverities } from '@firebreak/schema';

/**
 * Storm mode's rules (docs/api.md#storm-mode), per escalation policy: when more incidents that page one
 * policy opened from alerts within the window than the threshold, the next would-be incident paging
 * that policy joins the policy's storm incident instead, until the storm calms. Other policies' teams
 * are paged as usual.
 */

/**
 * What the storm check read in one query, in the scope of the policy the would-be incident pages: the
 * settings, the scope's recent openings and its current storm.
 */
export interface StormCheck {
  enabled: boolean;
  thresholdIncidents: number;
  windowMinutes: number;
  calmMinutes: number;
  /** The scope: `policy:<id>` of the policy the would-be incident pages, or `none`. */
  scope: string;
  /**
   * Incidents alerts opened within the window that page the scope's policy (none: that page nobody),
   * the storm incident not counted (counted up to the threshold).
   */
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
