import { describe, expect, it } from 'vitest';
import { planOpsgenieIntegrations } from './integrations';

describe('integrations', () => {
  it('API and Prometheus keep their key, /v2/alerts; the team’s one imported escalation is their policy', () => {
    const plan = planOpsgenieIntegrations(
      [
        { id: 'i1', name: 'App', type: 'API', apiKey: 'k1', teamId: 't1' },
        { id: 'i2', name: 'AM', type: 'Prometheus', apiKey: 'k2', teamId: 't2' },
      ],
      [
        { id: 'e1', name: 'E1', ownerTeam: { id: 't1' } },
        { id: 'e2', name: 'E2', ownerTeam: { id: 't2' } },
        { id: 'e3', name: 'E3', ownerTeam: { id: 't2' } },
      ],
      new Set(['e1', 'e2', 'e3']),
    );
    expect(plan.candidates).toEqual([
      {
        sourceId: 'i1',
        name: 'App',
        type: 'opsgenie',
        key: 'k1',
        enabled: true,
        escalationPolicySourceId: 'e1',
      },
      // Two escalations of that team: which one its alerts meet depends on Opsgenie's routing rules.
      {
        sourceId: 'i2',
        name: 'AM',
        type: 'opsgenie',
        key: 'k2',
        enabled: true,
        escalationPolicySourceId: null,
      },
    ]);
    expect(plan.entries[0]).toEqual({
      name: 'App',
      type: 'API',
      webhook_path: '/v2/alerts',
      note: expect.stringContaining('GenieKey'),
      keyedSourceId: 'i1',
    });
  });

  it('one disabled in Opsgenie is created disabled, and its note says so', () => {
    const plan = planOpsgenieIntegrations(
      [
        { id: 'i1', name: 'Off', type: 'API', apiKey: 'k1', enabled: false },
        { id: 'i2', name: 'On', type: 'API', apiKey: 'k2', enabled: true },
      ],
      [],
      new Set(),
    );
    expect(plan.candidates.map((c) => [c.name, c.enabled])).toEqual([
      ['Off', false],
      ['On', true],
    ]);
    expect(plan.entries[0]!.note).toContain('it is disabled in Opsgenie, so it is created disabled here');
    expect(plan.entries[1]!.note).not.toContain('disabled');
  });

  it('a keyed type without a visible key creates nothing and says what to do', () => {
    const plan = planOpsgenieIntegrations([{ id: 'i1', name: 'App', type: 'API' }], [], new Set());
    expect(plan.candidates).toEqual([]);
    expect(plan.entries[0]!.note).toContain('did not show');
  });

  it('other types are listed with where to post, or why nothing can', () => {
    const plan = planOpsgenieIntegrations(
      [
        { id: 'a', name: 'Mail', type: 'Email' },
        { id: 'b', name: 'G', type: 'Grafana' },
        { id: 'c', name: 'CW', type: 'AmazonCloudWatch' },
        { id: 'd', name: 'Out', type: 'Webhook' },
        { id: 'e', name: 'DD', type: 'Datadog', apiKey: 'not kept' },
      ],
      [],
      new Set(),
    );
    expect(plan.candidates).toEqual([]);
    expect(plan.entries.map((e) => [e.type, e.webhook_path])).toEqual([
      ['Email', null],
      ['Grafana', '/api/v1/webhooks/dashboard-alerting'],
      ['AmazonCloudWatch', '/api/v1/webhooks/cloud-monitor'],
      ['Webhook', null],
      ['Datadog', '/api/v1/webhooks/generic'],
    ]);
    expect(plan.entries.every((e) => e.note)).toBe(true);
  });
});
