import { describe, expect, it } from 'vitest';
import {
  PAGERDUTY_SOURCE,
  type PagerDutyParse,
  parsePagerDutyEventV1,
  parsePagerDutyEventV2,
} from './pagerduty';
import { loadFixture as fixture } from './test-fixtures';

const now = new Date('2026-11-24T10:30:00.000Z');
const NEW_KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const v2 = (payload: unknown) => parsePagerDutyEventV2(payload, now, NEW_KEY);
const v1 = (payload: unknown) => parsePagerDutyEventV1(payload, now, NEW_KEY);
function accepted(result: PagerDutyParse) {
  if (!result.ok) throw new Error(`refused: ${result.errors.join('; ')}`);
  return result;
}
function errorsOf(result: PagerDutyParse): string[] {
  if (result.ok) throw new Error('accepted');
  return result.errors;
}

describe('parsePagerDutyEventV2', () => {
  it('maps the example event of PagerDuty’s documentation', () => {
    const result = accepted(v2(fixture('pagerduty-v2-trigger')));
    expect(result.routingKey).toBe('e93facc04764012d7bfb002500d5d1a6');
    expect(result.dedupKey).toBe('srv01/mysql');
    expect(result.event).toEqual({
      action: 'trigger',
      alert: {
        title: 'DISK at 99% on machine prod-datapipe03.example.com',
        description: null,
        severity: 'critical',
        status: 'firing',
        externalId: 'srv01/mysql',
        fingerprint: null,
        source: PAGERDUTY_SOURCE,
        labels: {
          component: 'mysql',
          group: 'prod-datapipe',
          class: 'disk',
          source: 'prod-datapipe03.example.com',
        },
        annotations: {
          'free space': '1%',
          'ping time': '1500ms',
          'load avg': 0.75,
          links: [{ href: 'http://pagerduty.example.com', text: 'An example link.' }],
          images: [
            {
              src: 'https://chart.googleapis.com/chart?chs=600x400&chd=t:6,2,9,5,2,5,7,4,8,2,1&cht=lc&chds=a&chxt=y&chm=D,0033FF,0,0,5,1',
              href: 'https://google.com',
              alt: 'An example link with an image',
            },
          ],
          client: 'Sample Monitoring Service',
          client_url: 'https://monitoring.service.com',
        },
        // `+0000`, as PagerDuty's example writes it, is read as UTC.
        startedAt: new Date('2015-07-17T08:42:58.315Z'),
        endedAt: null,
      },
    });
  });

  it.each([
    ['critical', 'critical'],
    ['error', 'critical'],
    ['warning', 'warning'],
    ['info', 'info'],
  ])('severity %s → %s', (sent, expected) => {
    const event = fixture('pagerduty-v2-trigger');
    event.payload.severity = sent;
    const result = accepted(v2(event));
    expect(result.event.action === 'trigger' && result.event.alert.severity).toBe(expected);
  });

  it('makes a dedup key when the trigger has none, and uses it as the external id', () => {
    const event = fixture('pagerduty-v2-trigger');
    delete event.dedup_key;
    const result = accepted(v2(event));
    expect(result.dedupKey).toBe(NEW_KEY);
    expect(result.event.action === 'trigger' && result.event.alert.externalId).toBe(NEW_KEY);
  });

  it('acknowledge and resolve name the alert by dedup_key and need no payload', () => {
    for (const action of ['acknowledge', 'resolve'] as const) {
      const result = accepted(v2({ routing_key: 'k', event_action: action, dedup_key: 'srv01/mysql' }));
      expect(result.event).toEqual({ action, ref: { externalId: 'srv01/mysql' } });
    }
  });

  it('keeps an unreadable timestamp from losing the alert: the time of receipt instead', () => {
    const event = fixture('pagerduty-v2-trigger');
    event.payload.timestamp = 'yesterday';
    const result = accepted(v2(event));
    expect(result.event.action === 'trigger' && result.event.alert.startedAt).toEqual(now);
  });

  it('lists every problem of an invalid event, one sentence each naming the field', () => {
    expect(errorsOf(v2({ event_action: 'explode', payload: { severity: 'fatal' } }))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^routing_key: /),
        expect.stringMatching(/^event_action: Must be one of/),
        expect.stringMatching(/^payload\.summary: /),
        expect.stringMatching(/^payload\.source: /),
        expect.stringMatching(/^payload\.severity: Must be one of: critical, error, warning, info/),
      ]),
    );
    expect(errorsOf(v2({ routing_key: 'k', event_action: 'trigger' }))).toEqual([
      'payload: Required to trigger.',
    ]);
    expect(errorsOf(v2({ routing_key: 'k', event_action: 'resolve' }))).toEqual([
      'dedup_key: Required to resolve.',
    ]);
    expect(errorsOf(v2([]))).toEqual(['The event must be a JSON object.']);
  });

  it('reads Alertmanager’s pagerduty_configs events: severity error pages as critical', () => {
    const trigger = accepted(v2(fixture('alertmanager-pagerduty-v2-trigger')));
    expect(trigger.event).toMatchObject({
      action: 'trigger',
      alert: {
        title: '[FIRING:1] HighLatency (api-1 critical)',
        severity: 'critical',
        labels: { source: 'Alertmanager' },
        annotations: { num_firing: '1', client: 'Alertmanager' },
      },
    });
    const resolve = accepted(v2(fixture('alertmanager-pagerduty-v2-resolve')));
    expect(resolve.event).toEqual({ action: 'resolve', ref: { externalId: trigger.dedupKey } });
  });

  it('reads the payload to trigger only: a resolve or acknowledge with an empty summary is accepted', () => {
    // Alertmanager sends its payload on resolve too, with whatever its template printed for the group.
    for (const action of ['resolve', 'acknowledge'] as const) {
      const event = fixture('alertmanager-pagerduty-v2-resolve');
      event.event_action = action;
      event.payload.summary = '';
      event.payload.severity = 'unknown';
      const result = accepted(v2(event));
      expect(result.event).toEqual({ action, ref: { externalId: event.dedup_key } });
    }
    const trigger = fixture('alertmanager-pagerduty-v2-trigger');
    trigger.payload.summary = '';
    expect(errorsOf(v2(trigger))).toEqual([expect.stringMatching(/^payload\.summary: /)]);
  });
});

describe('parsePagerDutyEventV1', () => {
  it('maps the example event of PagerDuty’s v1 documentation: critical, details as annotations', () => {
    const result = accepted(v1(fixture('pagerduty-v1-trigger')));
    expect(result).toMatchObject({ routingKey: 'e93facc04764012d7bfb002500d5d1a6', dedupKey: 'srv01/HTTP' });
    expect(result.event).toEqual({
      action: 'trigger',
      alert: expect.objectContaining({
        title: 'FAILURE for production/HTTP on machine srv01.acme.com',
        severity: 'critical',
        externalId: 'srv01/HTTP',
        source: PAGERDUTY_SOURCE,
        labels: {},
        annotations: {
          'ping time': '1500ms',
          'load avg': 0.75,
          client: 'Sample Monitoring Service',
          client_url: 'https://monitoring.service.com',
          contexts: fixture('pagerduty-v1-trigger').contexts,
        },
        startedAt: now,
      }),
    });
  });

  it('reads Alertmanager’s v1 events (with their empty event_action and null payload)', () => {
    const trigger = accepted(v1(fixture('alertmanager-pagerduty-v1-trigger')));
    expect(trigger.event.action).toBe('trigger');
    const resolve = accepted(v1(fixture('alertmanager-pagerduty-v1-resolve')));
    expect(resolve.event).toEqual({ action: 'resolve', ref: { externalId: trigger.dedupKey } });
  });

  it('needs a description to trigger and an incident_key to acknowledge', () => {
    expect(errorsOf(v1({ service_key: 'k', event_type: 'trigger' }))).toEqual([
      'description: Required to trigger.',
    ]);
    expect(errorsOf(v1({ service_key: 'k', event_type: 'acknowledge' }))).toEqual([
      'incident_key: Required to acknowledge.',
    ]);
  });
});
