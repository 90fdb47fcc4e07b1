/**
 * The fixed alert webhooks, one row each: every fact about an integration except its parser, so the
 * web UI can read them too (the parsers hash with node:crypto; they are keyed by the same ids in
 * `webhook-parsers.ts`).
 *
 * - `id` names the integration in logs, metrics and failure reports, and is stored with each alert:
 *   dedup is per integration, so renaming an id would orphan every alert it already recorded.
 * - `pathSlug` is the last segment of `path`, where the sender posts.
 * - `source` is the `source` stamped on its alerts, which routing rules and the alert filter match;
 *   null for the generic webhook, whose senders name their own.
 * - `settingsSlug` names its section of Settings: `PUT /api/v1/settings/integrations/<settingsSlug>`.
 * - `settingKeys` are the settings rows it reads (credentials, the SNS topic allowlist).
 */
export const webhookIntegrations = {
  generic: webhook({
    id: 'generic',
    pathSlug: 'generic',
    source: null,
    settingsSlug: 'generic-webhook',
    settingKeys: { signingSecret: 'integrations.generic_webhook.signing_secret' },
  }),
  alertmanager: webhook({
    id: 'alertmanager',
    pathSlug: 'metrics-alertmanager',
    source: 'metrics-alertmanager',
    settingsSlug: 'metrics-alertmanager',
    settingKeys: { bearerToken: 'integrations.metrics_alertmanager.bearer_token' },
  }),
  grafana: webhook({
    id: 'grafana',
    pathSlug: 'dashboard-alerting',
    source: 'dashboard-alerting',
    settingsSlug: 'dashboard-alerting',
    settingKeys: {
      hmacSecret: 'integrations.dashboard_alerting.hmac_secret',
      timestampHeader: 'integrations.dashboard_alerting.timestamp_header',
    },
  }),
  cloudwatch: webhook({
    id: 'cloudwatch',
    pathSlug: 'cloud-monitor',
    source: 'cloud-monitor',
    settingsSlug: 'cloud-monitor',
    settingKeys: { topicArns: 'integrations.cloud_monitor.topic_arns' },
  }),
} as const;

export type WebhookIntegrationId = keyof typeof webhookIntegrations;

/**
 * The `source` values the fixed webhooks stamp on their alerts, for pickers and filters. Alerts from
 * the generic webhook carry whatever `source` their sender gave, so no list is complete.
 */
export const fixedAlertSources: readonly string[] = Object.values(webhookIntegrations).flatMap(
  (integration) => integration.source ?? [],
);

interface WebhookFacts {
  id: string;
  pathSlug: string;
  source: string | null;
  settingsSlug: string;
  settingKeys: Readonly<Record<string, string>>;
}

function webhook<const T extends WebhookFacts>(facts: T) {
  return { ...facts, path: `/api/v1/webhooks/${facts.pathSlug}` as `/api/v1/webhooks/${T['pathSlug']}` };
}
