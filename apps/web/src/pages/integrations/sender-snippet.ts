import type { Integration } from '../../lib/api';

/**
 * What to paste into the sending tool so it posts to an integration's keyed URL
 * (docs/integrations/alert-webhooks.md has each sender's wire format). The key in the URL is the
 * credential, so no snippet carries a secret or a signature. Pure, so each sender's text is tested.
 */
export type SnippetKind = 'yaml' | 'shell' | 'steps' | 'none';

export interface SenderSnippet {
  kind: SnippetKind;
  /** One line above the snippet: where it goes. */
  intro: string;
  text: string;
}

export type SnippetSource = Pick<Integration, 'type' | 'name' | 'intake_url' | 'interval_seconds'>;

/** The API answers an absolute URL when PUBLIC_URL is set; otherwise the console's own origin stands in. */
export function absoluteIntakeUrl(intakeUrl: string, origin: string): string {
  return /^https?:\/\//.test(intakeUrl) ? intakeUrl : `${origin.replace(/\/+$/, '')}${intakeUrl}`;
}

export function senderSnippet(integration: SnippetSource, origin: string): SenderSnippet {
  const url = absoluteIntakeUrl(integration.intake_url, origin);
  switch (integration.type) {
    case 'alertmanager':
      return {
        kind: 'yaml',
        intro: 'In alertmanager.yml, add a receiver and send a route to it:',
        text: [
          'receivers:',
          `  - name: ${yamlString(`firebreak-${integration.name}`)}`,
          '    webhook_configs:',
          `      - url: ${yamlString(url)}`,
          '        send_resolved: true',
        ].join('\n'),
      };
    case 'grafana':
      return {
        kind: 'steps',
        intro: 'In Grafana, create a webhook contact point:',
        text: [
          '1. Alerting → Contact points → Add contact point.',
          `2. Name: ${integration.name}; Integration: Webhook.`,
          `3. URL: ${url}`,
          '4. HTTP Method: POST. Leave the HMAC signature empty: the key in the URL identifies the sender.',
          '5. Save, then choose this contact point in a notification policy.',
        ].join('\n'),
      };
    case 'cloudwatch':
      return {
        kind: 'shell',
        intro:
          'Subscribe the URL to the SNS topic your CloudWatch alarms publish to (HTTPS, raw message delivery off); Firebreak confirms the subscription itself:',
        text: [
          'aws sns subscribe --topic-arn "$TOPIC_ARN" --protocol https \\',
          `  --notification-endpoint '${url}'`,
        ].join('\n'),
      };
    case 'generic':
      return {
        kind: 'shell',
        intro:
          'POST a JSON body of alerts (the generic format); the same external_id with "status": "resolved" resolves it:',
        text: [
          `curl -sS -X POST '${url}' -H 'content-type: application/json' \\`,
          `  -d '{"alerts":[{"title":"Disk almost full on db-1","severity":"critical","external_id":"disk-db-1","labels":{"host":"db-1"}}]}'`,
        ].join('\n'),
      };
    case 'heartbeat':
      return {
        kind: 'shell',
        intro: 'Ping from cron on the sending host (GET or POST both count); a missed ping raises an alert:',
        text: `${cronSchedule(integration.interval_seconds ?? 60)} curl -fsS -m 10 --retry 3 '${url}' > /dev/null`,
      };
    case 'pagerduty':
    case 'opsgenie':
      return {
        kind: 'none',
        intro: `Alerts in the ${integration.type === 'pagerduty' ? 'PagerDuty' : 'Opsgenie'} format are not accepted yet; the key is kept for when they are.`,
        text: url,
      };
  }
}

/**
 * A cron schedule that pings at least once per interval. Cron's finest step is a minute, so a shorter
 * interval pings every minute (the grace period covers the difference); a step that does not divide
 * the hour or day only makes the last gap shorter, never longer.
 */
export function cronSchedule(intervalSeconds: number): string {
  const minutes = Math.max(1, Math.floor(intervalSeconds / 60));
  if (minutes === 1) return '* * * * *';
  if (minutes < 60) return `*/${minutes} * * * *`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return hours === 1 ? '0 * * * *' : `0 */${hours} * * *`;
  return '0 0 * * *';
}

/** A YAML scalar that never needs escaping rules: plain when safe, else double-quoted JSON. */
function yamlString(value: string): string {
  return /^[A-Za-z0-9._/:@-]+$/.test(value) && !/^[-:@]/.test(value) ? value : JSON.stringify(value);
}
