import type { AlertInput, ValidationIssue } from '@firebreak/schema';

/**
 * What one request to an alert API (PagerDuty's events, Opsgenie's alerts) asks for: record an alert,
 * or act on one the same integration recorded before, named by its dedup key (`external_id`) or, for
 * Opsgenie's `identifierType=id`, by Firebreak's alert id (docs/integrations/pagerduty-opsgenie-apis.md).
 */
export type SenderAlertRef = { externalId: string } | { alertId: string };

export type SenderEvent =
  | { action: 'trigger'; alert: AlertInput }
  | { action: 'acknowledge' | 'resolve'; ref: SenderAlertRef };

/**
 * Problems as the alert APIs list them: one sentence per problem naming the field (PagerDuty answers
 * `errors: ["..."]`, strings only).
 */
export function problemSentences(problems: readonly ValidationIssue[]): string[] {
  return problems.map(({ path, message }) => (path === '' ? message : `${path}: ${message}`));
}

/** Only string values, trimmed and non-empty: what may become a label. */
export function textOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** A sender's timestamp when it names an instant, else `fallback` (never a reason to lose the alert). */
export function instantOr(value: unknown, fallback: Date): Date {
  if (typeof value !== 'string') return new Date(fallback);
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? new Date(fallback) : date;
}
