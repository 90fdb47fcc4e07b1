import { describe, expect, it } from 'vitest';
import { fixedAlertSources, webhookIntegrations } from './webhook-integrations';
import { webhookParsers } from './webhook-parsers';

describe('webhookIntegrations', () => {
  const rows = Object.entries(webhookIntegrations);

  it('keys each row by its id, and gives each a parser', () => {
    for (const [key, integration] of rows) expect(integration.id).toBe(key);
    expect(Object.keys(webhookParsers).sort()).toEqual(Object.keys(webhookIntegrations).sort());
  });

  it('gives every webhook its own path, settings section and settings rows', () => {
    const unique = (values: string[]) => new Set(values).size === values.length;
    expect(unique(rows.map(([, i]) => i.path))).toBe(true);
    expect(unique(rows.map(([, i]) => i.settingsSlug))).toBe(true);
    expect(unique(rows.flatMap(([, i]) => Object.values(i.settingKeys)))).toBe(true);
  });

  it('lists the sources the fixed webhooks stamp on their alerts', () => {
    expect(webhookIntegrations.alertmanager.path).toBe('/api/v1/webhooks/metrics-alertmanager');
    expect(fixedAlertSources).toEqual(['metrics-alertmanager', 'dashboard-alerting', 'cloud-monitor']);
  });
});
