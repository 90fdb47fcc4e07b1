/** What a maintenance window looks at in an alert. */
export interface MaintainableAlert {
  integration_id: string | null;
  labels: Record<string, string>;
}

export interface WindowLike {
  match: { integration_ids?: readonly string[]; labels?: Readonly<Record<string, string>> };
}

/**
 * Every criterion given must match; an empty match takes every alert. `integration_ids` takes alerts
 * of any of those integrations (never an alert of a fixed webhook path); each label must be present
 * with that value (`"*"`: present with any value, as in routing rules).
 */
export function windowMatches(window: WindowLike, alert: MaintainableAlert): boolean {
  const { integration_ids: integrationIds, labels } = window.match;
  if (integrationIds !== undefined && integrationIds.length > 0) {
    if (alert.integration_id === null || !integrationIds.includes(alert.integration_id)) return false;
  }
  for (const [key, expected] of Object.entries(labels ?? {})) {
    const actual = alert.labels[key];
    if (actual === undefined || (expected !== '*' && actual !== expected)) return false;
  }
  return true;
}

/** The first window (in the caller's order) that holds this alert back, if any. */
export function holdingWindow<W extends WindowLike>(
  windows: readonly W[],
  alert: MaintainableAlert,
): W | undefined {
  return windows.find((window) => windowMatches(window, alert));
}

export type MaintenanceStatus = 'scheduled' | 'active' | 'ended';

/**
 * Where a window stands at `at`: it holds alerts back from `starts_at` (included) to `ends_at`
 * (excluded), the same bounds intake uses to find the windows in force.
 */
export function maintenanceStatus(window: { starts_at: Date; ends_at: Date }, at: Date): MaintenanceStatus {
  if (window.starts_at.getTime() > at.getTime()) return 'scheduled';
  return window.ends_at.getTime() > at.getTime() ? 'active' : 'ended';
}
