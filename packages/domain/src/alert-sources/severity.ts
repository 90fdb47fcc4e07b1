import type { AlertSeverity } from '@firebreak/schema';

// The senders' severity words (docs/integrations/alert-webhooks.md#severity). Our alert severities have no
// `high`; the `error|high|major|p2|sev2` group maps to `warning`, which opens an incident of severity `high`
// (docs/api.md#alerts), so those alerts still land one step below critical.
const severityGroups: ReadonlyArray<readonly [AlertSeverity, readonly string[]]> = [
  ['critical', ['critical', 'crit', 'page', 'p1', 'sev1', 'fatal', 'emergency']],
  ['warning', ['error', 'err', 'high', 'major', 'p2', 'sev2']],
  ['warning', ['warning', 'warn', 'medium', 'minor', 'p3', 'sev3']],
  ['info', ['info', 'informational', 'low', 'notice', 'p4', 'p5', 'sev4', 'none']],
];
const aliases = new Map(
  severityGroups.flatMap(([severity, names]) => names.map((name) => [name, severity] as const)),
);

/** The severity a sender's word stands for (case-insensitive), or null when it is not one we know. */
export function normalizeSeverity(raw: unknown): AlertSeverity | null {
  return typeof raw === 'string' ? (aliases.get(raw.trim().toLowerCase()) ?? null) : null;
}

/**
 * The first recognised `severity` label, looking at the alert's labels, then the group's common labels,
 * then its group labels; unknown or missing → `fallback`. The raw value stays in the labels.
 */
export function severityFromLabels(
  labelSets: ReadonlyArray<Record<string, string> | null | undefined>,
  fallback: AlertSeverity,
): AlertSeverity {
  for (const labels of labelSets) {
    const severity = normalizeSeverity(labels?.severity);
    if (severity) return severity;
  }
  return fallback;
}
