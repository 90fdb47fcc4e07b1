import { GrafanaPayload } from '@firebreak/schema';
import { accepted, type ParseResult, problemsOf, rejected } from './parse-result';
import { mapPrometheusAlert } from './prometheus-alert';
import { webhookIntegrations } from './webhook-integrations';

/**
 * Grafana unified-alerting webhook contact point, `version: "1"` → one AlertInput per `alerts[]`
 * element, mapped like Alertmanager's: same keys, severity from `labels.severity`
 * (docs/integrations/alert-webhooks.md#grafana).
 * Grafana strips the private `__…__` labels before sending and resurfaces them as fields; those fields
 * (links, evaluated values, rule UID) become annotations so a responder sees them next to the runbook.
 */
export function parseGrafanaWebhook(payload: unknown, now: Date): ParseResult {
  const parsed = GrafanaPayload.safeParse(payload);
  if (!parsed.success) return rejected(problemsOf(parsed.error));
  const { alerts, title, ...group } = parsed.data;
  return accepted(
    alerts.map((alert) =>
      mapPrometheusAlert(alert, group, now, {
        source: webhookIntegrations.grafana.source,
        extraAnnotations: {
          silence_url: alert.silenceURL,
          dashboard_url: alert.dashboardURL,
          panel_url: alert.panelURL,
          image_url: alert.imageURL,
          value_string: alert.valueString,
          values: alert.values,
          rule_uid: alert.ruleUID,
        },
        // Without a summary or an alertname, Grafana's rendered group title still says what fired.
        fallbackTitle: title,
      }),
    ),
  );
}
