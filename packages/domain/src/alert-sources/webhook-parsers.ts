import { parseAlertmanagerWebhook } from './alertmanager';
import { parseCloudWatchNotification } from './cloudwatch';
import { parseGenericWebhook } from './generic';
import { parseGrafanaWebhook } from './grafana';
import type { WebhookIntegrationId } from './webhook-integrations';

/**
 * The parser of each fixed webhook, keyed like `webhookIntegrations`; apart from that table because the
 * parsers need node:crypto and the table is shared with the browser. CloudWatch's takes the verified
 * SNS notification, not the raw body: the envelope is checked before its message is parsed.
 */
export const webhookParsers = {
  generic: parseGenericWebhook,
  alertmanager: parseAlertmanagerWebhook,
  grafana: parseGrafanaWebhook,
  cloudwatch: parseCloudWatchNotification,
} as const satisfies Record<WebhookIntegrationId, unknown>;
