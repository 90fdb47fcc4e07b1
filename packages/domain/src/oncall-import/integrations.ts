import type { ImportIntegration, OnCallIntegrationItem } from '@firebreak/schema';

/**
 * Integrations → the webhook of this service to point each sender at (spec §4.6, CONTRACT.md §11).
 * No record is created. OnCall strips `legacy_` from types on output; it is stripped here too in case
 * an older server does not.
 */

const paths = new Map<string, string | null>(
  Object.entries({
    alertmanager: '/api/v1/webhooks/metrics-alertmanager',
    grafana: '/api/v1/webhooks/dashboard-alerting',
    grafana_alerting: '/api/v1/webhooks/dashboard-alerting',
    // CloudWatch alarms reach OnCall through SNS; there is no `cloudwatch` type, but the spec names one.
    amazon_sns: '/api/v1/webhooks/cloud-monitor',
    cloudwatch: '/api/v1/webhooks/cloud-monitor',
    // This service has no inbound e-mail receiver.
    inbound_email: null,
  }),
);

export const GENERIC_WEBHOOK_PATH = '/api/v1/webhooks/generic';

export function webhookPathFor(type: string): string | null {
  const key = type
    .trim()
    .toLowerCase()
    .replace(/^legacy_/, '');
  const path = paths.get(key);
  return path === undefined ? GENERIC_WEBHOOK_PATH : path;
}

export function planIntegrations(integrations: readonly OnCallIntegrationItem[]): ImportIntegration[] {
  return integrations.map(({ name, type }) => ({ name, type, webhook_path: webhookPathFor(type) }));
}
