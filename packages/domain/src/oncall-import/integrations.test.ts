import { describe, expect, it } from 'vitest';
import { planIntegrations, webhookPathFor } from './integrations';

describe('integrations → webhook paths', () => {
  it.each([
    ['alertmanager', '/api/v1/webhooks/metrics-alertmanager'],
    ['legacy_alertmanager', '/api/v1/webhooks/metrics-alertmanager'],
    ['grafana', '/api/v1/webhooks/dashboard-alerting'],
    ['grafana_alerting', '/api/v1/webhooks/dashboard-alerting'],
    ['legacy_grafana_alerting', '/api/v1/webhooks/dashboard-alerting'],
    ['amazon_sns', '/api/v1/webhooks/cloud-monitor'],
    ['cloudwatch', '/api/v1/webhooks/cloud-monitor'],
    ['inbound_email', null],
    ['webhook', '/api/v1/webhooks/generic'],
    ['formatted_webhook', '/api/v1/webhooks/generic'],
    ['zabbix', '/api/v1/webhooks/generic'],
    ['toString', '/api/v1/webhooks/generic'],
  ])('%s → %s', (type, path) => {
    expect(webhookPathFor(type)).toBe(path);
  });

  it('list every integration in API order, with its type as the source names it', () => {
    expect(
      planIntegrations([
        { id: 'C1', name: 'Prometheus', type: 'legacy_alertmanager' },
        { id: 'C2', name: 'Inbox', type: 'inbound_email' },
      ]),
    ).toEqual([
      {
        name: 'Prometheus',
        type: 'legacy_alertmanager',
        webhook_path: '/api/v1/webhooks/metrics-alertmanager',
        note: null,
      },
      { name: 'Inbox', type: 'inbound_email', webhook_path: null, note: null },
    ]);
  });
});
