import { describe, expect, it } from 'vitest';
import { EVENTS_V1_PATH, EVENTS_V2_PATH, planPagerDutyIntegrations } from './integrations';

const service = {
  id: 'SV1',
  name: 'Checkout',
  escalation_policy: { id: 'E1', type: 'escalation_policy_reference' },
  integrations: [],
};
const integration = (id: string, type: string, name: string, key?: string) => ({
  id,
  type,
  name,
  integration_key: key,
});

describe('PagerDuty service integrations', () => {
  it('keeps the key of Events API v2 and v1 integrations, under the service’s policy', () => {
    const plan = planPagerDutyIntegrations([service], {
      SV1: [
        integration('I2', 'events_api_v2_inbound_integration', 'Prometheus', 'KEY-V2'),
        integration('I1', 'generic_events_api_inbound_integration', 'Nagios', 'KEY-V1'),
      ],
    });
    expect(plan.candidates).toEqual([
      {
        sourceId: 'SV1/I2',
        name: 'Checkout / Prometheus',
        type: 'pagerduty',
        key: 'KEY-V2',
        enabled: true,
        escalationPolicySourceId: 'E1',
      },
      {
        sourceId: 'SV1/I1',
        name: 'Checkout / Nagios',
        type: 'pagerduty',
        key: 'KEY-V1',
        enabled: true,
        escalationPolicySourceId: 'E1',
      },
    ]);
    expect(plan.entries.map((e) => [e.name, e.webhook_path, e.keyedSourceId])).toEqual([
      ['Checkout / Prometheus', EVENTS_V2_PATH, 'SV1/I2'],
      ['Checkout / Nagios', EVENTS_V1_PATH, 'SV1/I1'],
    ]);
    expect(plan.entries[0]!.note).toContain('keep their routing key');
    expect(EVENTS_V2_PATH).toBe('/v2/enqueue');
  });

  it('the integrations of a service disabled in PagerDuty are created disabled, and their note says so', () => {
    const v2 = integration('I2', 'events_api_v2_inbound_integration', 'Prometheus', 'KEY-V2');
    const plan = planPagerDutyIntegrations(
      [
        { ...service, status: 'disabled' },
        { ...service, id: 'SV2', status: 'maintenance' },
      ],
      { SV1: [v2], SV2: [{ ...v2, integration_key: 'KEY-2' }] },
    );
    expect(plan.candidates.map((c) => [c.sourceId, c.enabled])).toEqual([
      ['SV1/I2', false],
      ['SV2/I2', true],
    ]);
    expect(plan.entries[0]!.note).toContain(
      'its service is disabled in PagerDuty, so it is created disabled here',
    );
    expect(plan.entries[1]!.note).not.toContain('disabled');
  });

  it('lists other types with what to do: e-mail is not received, others need an integration here', () => {
    const plan = planPagerDutyIntegrations([service], {
      SV1: [
        integration('IM', 'generic_email_inbound_integration', 'Inbox'),
        integration('IC', 'aws_cloudwatch_inbound_integration', 'CloudWatch', 'CW'),
        integration('IN', 'events_api_v2_inbound_integration', 'No key'),
      ],
    });
    expect(plan.candidates).toEqual([]);
    expect(plan.entries.map((e) => [e.type, e.webhook_path])).toEqual([
      ['generic_email_inbound_integration', null],
      ['aws_cloudwatch_inbound_integration', null],
      ['events_api_v2_inbound_integration', EVENTS_V2_PATH],
    ]);
    expect(plan.entries[0]!.note).toMatch(/^e-mail is not received here/);
    expect(plan.entries[1]!.note).toMatch(/^not imported: create an integration/);
    expect(plan.entries[2]!.note).toMatch(/sent no integration_key/);
  });

  it('falls back to the service’s references (types with _reference) when none were read whole', () => {
    const plan = planPagerDutyIntegrations(
      [
        {
          ...service,
          integrations: [{ id: 'I9', type: 'generic_email_inbound_integration_reference', summary: 'Mail' }],
        },
      ],
      {},
    );
    expect(plan.entries).toEqual([
      {
        name: 'Checkout / Mail',
        type: 'generic_email_inbound_integration',
        webhook_path: null,
        note: expect.any(String),
      },
    ]);
  });
});
