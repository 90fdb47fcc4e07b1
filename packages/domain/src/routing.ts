import type { AlertSeverity, IncidentSeverity, MatchCriteria, RuleActions } from '@firebreak/schema';

/** What routing looks at in an alert. */
export interface RoutableAlert {
  source: string | null;
  /** The integration whose key received it; null for the fixed webhook paths. */
  integration_id: string | null;
  labels: Record<string, string>;
  severity: AlertSeverity;
}

export interface RuleLike {
  match_criteria: MatchCriteria;
  actions: RuleActions;
}

/** Every criterion given must match (docs/api.md#routing-rules); `"*"` as a label value means "present". */
export function criteriaMatch(criteria: MatchCriteria, alert: RoutableAlert): boolean {
  if (criteria.source !== undefined) {
    const sources = Array.isArray(criteria.source) ? criteria.source : [criteria.source];
    if (alert.source === null || !sources.includes(alert.source)) return false;
  }
  if (criteria.severity !== undefined && !criteria.severity.includes(alert.severity)) return false;
  if (criteria.integration_id !== undefined) {
    const ids = Array.isArray(criteria.integration_id) ? criteria.integration_id : [criteria.integration_id];
    if (alert.integration_id === null || !ids.includes(alert.integration_id)) return false;
  }
  for (const [key, expected] of Object.entries(criteria.labels ?? {})) {
    const actual = alert.labels[key];
    if (actual === undefined || (expected !== '*' && actual !== expected)) return false;
  }
  return true;
}

/** The first matching rule of `rules`, which must already be in evaluation order. */
export function firstMatchingRule<R extends RuleLike>(
  rules: readonly R[],
  alert: RoutableAlert,
): R | undefined {
  return rules.find((rule) => criteriaMatch(rule.match_criteria, alert));
}

/** Evaluation order: ascending priority, ties oldest first. */
export function byEvaluationOrder(
  a: { priority: number; created_at: Date },
  b: { priority: number; created_at: Date },
): number {
  return a.priority - b.priority || a.created_at.getTime() - b.created_at.getTime();
}

/** critical→critical, warning→high, info→low, unless the rule sets a severity (docs/api.md#alerts). */
export function incidentSeverityFor(alert: AlertSeverity, override?: IncidentSeverity): IncidentSeverity {
  if (override) return override;
  return alert === 'critical' ? 'critical' : alert === 'warning' ? 'high' : 'low';
}

/**
 * The identity of a group: the values of the `group_by` labels, in the rule's order. A missing label
 * counts as its own value (absent), distinct from an empty string.
 */
export function groupKey(groupBy: readonly string[], labels: Record<string, string>): string {
  return JSON.stringify(groupBy.map((key) => (key in labels ? labels[key] : null)));
}
