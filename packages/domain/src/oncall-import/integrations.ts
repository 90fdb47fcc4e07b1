import type { OnCallIntegrationItem } from '@firebreak/schema';
import { webhookIntegrations } from '../alert-sources/webhook-integrations';
import type { PlannedIntegrationEntry } from './types';

/**
 * OnCall integrations → the webhook of this service to point each sender at; the import creates no
 * record for them. A type with no webhook of its own goes to the generic one. OnCall strips `legacy_`
 * from types on output; it is stripped here too in case an older server does not.
 */
const { generic, alertmanager, grafana, cloudwatch } = webhookIntegrations;

const paths = new Map<string, string | null>(
  Object.entries({
    alertmanager: alertmanager.path,
    grafana: grafana.path,
    grafana_alerting: grafana.path,
    // CloudWatch alarms reach OnCall through SNS. OnCall has no `cloudwatch` type; the name is
    // mapped anyway so that such an integration is not sent to the generic webhook.
    amazon_sns: cloudwatch.path,
    cloudwatch: cloudwatch.path,
    // This service has no inbound e-mail receiver.
    inbound_email: null,
  }),
);

export function webhookPathFor(type: string): string | null {
  const key = type
    .trim()
    .toLowerCase()
    .replace(/^legacy_/, '');
  const path = paths.get(key);
  return path === undefined ? generic.path : path;
}

export function planIntegrations(integrations: readonly OnCallIntegrationItem[]): PlannedIntegrationEntry[] {
  return integrations.map(({ name, type }) => ({
    name,
    type,
    webhook_path: webhookPathFor(type),
    note: null,
  }));
}
