import { createHash } from 'node:crypto';
import { type AlertInput, type AlertmanagerPayload, alertLimits } from '@firebreak/schema';
import { clip, clipId, clipLabelValues, firstText, presentEntries } from './alert-text';
import { severityFromLabels } from './severity';

/**
 * The mapping Alertmanager and Grafana unified alerting (which embeds Alertmanager's template data)
 * share: one AlertInput per element of `alerts[]`, keyed by the per-instance `fingerprint`
 * (docs/integrations/alert-webhooks.md#alertmanager, #grafana).
 */

export type PrometheusAlert = AlertmanagerPayload['alerts'][number];
// Pick, not Omit: the loose object's index signature would swallow the named keys under Omit.
export type PrometheusGroup = Pick<
  AlertmanagerPayload,
  'status' | 'groupKey' | 'groupLabels' | 'commonLabels' | 'commonAnnotations'
>;

/**
 * Go's `time.Time{}` (`0001-01-01T00:00:00Z`) is a valid JS Date, not NaN: Alertmanager sends it as
 * `endsAt` of every firing alert. Anything in year 1 or before counts as "no time"
 * (docs/integrations/alert-webhooks.md#rules-for-every-source).
 */
export function isGoZeroTime(date: Date): boolean {
  return date.getUTCFullYear() <= 1;
}

export function sourceTime(date: Date | null | undefined): Date | null {
  return date && !isGoZeroTime(date) ? date : null;
}

/**
 * Stand-in for a missing `fingerprint` (hand-written payloads, old senders): a hash of the sorted label set,
 * 16 hex characters like Alertmanager's own, so re-sends of the same alert keep deduplicating.
 */
export function labelFingerprint(labels: Record<string, string>): string {
  const hash = createHash('sha256');
  for (const name of Object.keys(labels).sort()) hash.update(`${name}\u00ff${labels[name]}\u00ff`);
  return hash.digest('hex').slice(0, 16);
}

export interface PrometheusMapping {
  source: string;
  /** Source-specific fields worth showing, added as annotations when they have a value. */
  extraAnnotations?: Record<string, unknown>;
  /** Title when the alert has neither a `summary` annotation nor an `alertname` label. */
  fallbackTitle?: string | null;
}

export function mapPrometheusAlert(
  alert: PrometheusAlert,
  group: PrometheusGroup,
  now: Date,
  { source, extraAnnotations = {}, fallbackTitle }: PrometheusMapping,
): AlertInput {
  const labels = alert.labels ?? {};
  // commonAnnotations is the intersection of the alerts' annotations, so it only fills gaps (e.g. in
  // hand-written payloads); the alert's own values win. Links we derive come after the sender's
  // annotations and never replace one of them.
  const annotations: Record<string, unknown> = { ...group.commonAnnotations, ...alert.annotations };
  const derived = presentEntries({
    generator_url: alert.generatorURL,
    group_key: group.groupKey,
    ...extraAnnotations,
  });
  for (const [name, value] of Object.entries(derived)) {
    if (!Object.hasOwn(annotations, name)) annotations[name] = value;
  }
  // Per-alert status: a group that is still firing may carry resolved members.
  const status = alert.status ?? group.status ?? 'firing';
  const title = firstText(annotations.summary, labels.alertname, fallbackTitle) ?? 'Untitled alert';
  const description = firstText(annotations.description, annotations.message);
  return {
    title: clip(title, alertLimits.titleLength),
    description: description === null ? null : clip(description, alertLimits.descriptionLength),
    severity: severityFromLabels([labels, group.commonLabels, group.groupLabels], 'warning'),
    status,
    externalId: null,
    fingerprint: clipId(
      firstText(alert.fingerprint) ?? labelFingerprint(labels),
      alertLimits.externalIdLength,
    ),
    source,
    labels: clipLabelValues(labels, alertLimits.labelValueLength),
    annotations,
    startedAt: sourceTime(alert.startsAt) ?? new Date(now),
    // Firing alerts carry the Go zero time as endsAt; a resolved one without a real endsAt ended by the
    // time we heard.
    endedAt: status === 'resolved' ? (sourceTime(alert.endsAt) ?? new Date(now)) : null,
  };
}
