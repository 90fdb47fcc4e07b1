import { type ComponentStatus, componentStatuses } from '@firebreak/schema';

/**
 * How the page turns incidents into statuses (docs/status-page.md#how-status-is-computed). The worst
 * open severity a component follows, as ranked by the database (3 critical, 2 high, 1 medium or low,
 * 0 none), names its automatic status.
 */
const statusOfRank: readonly ComponentStatus[] = [
  'operational',
  'degraded',
  'partial_outage',
  'major_outage',
];

export function automaticStatus(openSeverityRank: number): ComponentStatus {
  return statusOfRank[Math.max(0, Math.min(3, openSeverityRank))]!;
}

/** A status set by hand wins until it is set back to null. */
export function effectiveStatus(manual: ComponentStatus | null, openSeverityRank: number): ComponentStatus {
  return manual ?? automaticStatus(openSeverityRank);
}

export function worstStatus(statuses: readonly ComponentStatus[]): ComponentStatus {
  let worst = 0;
  for (const status of statuses) worst = Math.max(worst, componentStatuses.indexOf(status));
  return componentStatuses[worst]!;
}

/**
 * The page's overall status: the worst component's; while an incident is on the page as not resolved
 * (its latest public update not `resolved`, whatever its internal status), at least `degraded`, so that
 * the page never says all is well above an incident it reports as ongoing, even one that affects no
 * component.
 */
export function overallStatus(
  components: readonly ComponentStatus[],
  ongoingIncidents: number,
): ComponentStatus {
  const worst = worstStatus(components);
  return worst === 'operational' && ongoingIncidents > 0 ? 'degraded' : worst;
}

export const DEFAULT_HEADING = 'Service disruption';

/**
 * An incident's public heading: the title someone published, else the components it affects, else a
 * neutral phrase. Never the incident's own title, which is written for responders.
 */
export function publicHeading(title: string | null, componentNames: readonly string[]): string {
  if (title) return title;
  if (componentNames.length === 0) return DEFAULT_HEADING;
  return `${DEFAULT_HEADING}: ${componentNames.join(', ')}`;
}
