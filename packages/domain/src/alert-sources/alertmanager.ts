import { AlertmanagerPayload } from '@firebreak/schema';
import { accepted, type ParseResult, problemsOf, rejected } from './parse-result';
import { mapPrometheusAlert } from './prometheus-alert';
import { webhookIntegrations } from './webhook-integrations';

/**
 * Alertmanager webhook, `version: "4"` → one AlertInput per `alerts[]` element (body and mapping:
 * docs/integrations/alert-webhooks.md#alertmanager). Dedup key: the alert's `fingerprint`; the group's
 * `groupKey` is kept as annotation `group_key` because it names the group, not the alert. `version` is
 * not checked: it has been "4" for years, and Alertmanager never retries a 4xx
 * (docs/integrations/alert-webhooks.md#answers), so a false rejection would drop alerts for good.
 */
export function parseAlertmanagerWebhook(payload: unknown, now: Date): ParseResult {
  const parsed = AlertmanagerPayload.safeParse(payload);
  if (!parsed.success) return rejected(problemsOf(parsed.error));
  const { alerts, ...group } = parsed.data;
  return accepted(
    alerts.map((alert) =>
      mapPrometheusAlert(alert, group, now, { source: webhookIntegrations.alertmanager.source }),
    ),
  );
}
