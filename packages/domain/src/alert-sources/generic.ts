import { type AlertInput, alertLimits, type GenericAlert, GenericWebhookBody } from '@firebreak/schema';
import { clip, clipId, clipLabelValues } from './alert-text';
import { accepted, type ParseResult, problemsOf, rejected } from './parse-result';

/**
 * The generic webhook body (docs/integrations/alert-webhooks.md#generic) → AlertInput[]. All or
 * nothing: one bad element rejects the request with a problem per field (`alerts[3].title`), since
 * nothing in a rejected request is stored. The sender's `external_id` is the dedup key; there is no
 * fingerprint.
 */
export function parseGenericWebhook(payload: unknown, now: Date): ParseResult {
  const parsed = GenericWebhookBody.safeParse(payload);
  if (!parsed.success) return rejected(problemsOf(parsed.error));
  return accepted(parsed.data.alerts.map((alert) => toAlertInput(alert, now)));
}

function toAlertInput(alert: GenericAlert, now: Date): AlertInput {
  return {
    // Over-long texts are clipped, not refused: the sender would not retry a 400 and the alert would be
    // lost (docs/integrations/alert-webhooks.md#answers).
    title: clip(alert.title, alertLimits.titleLength),
    description: alert.description == null ? null : clip(alert.description, alertLimits.descriptionLength),
    severity: alert.severity,
    status: alert.status,
    externalId: alert.external_id == null ? null : clipId(alert.external_id, alertLimits.externalIdLength),
    fingerprint: null,
    source: alert.source == null ? null : clip(alert.source, alertLimits.sourceLength),
    labels: clipLabelValues(alert.labels ?? {}, alertLimits.labelValueLength),
    annotations: alert.annotations ?? {},
    // started_at defaults to the time of receipt; the sender has no field for the end, so a
    // resolved alert ended when we heard about it. Each alert gets its own Date: Dates are mutable.
    startedAt: new Date(alert.started_at ?? now),
    endedAt: alert.status === 'resolved' ? new Date(now) : null,
  };
}
