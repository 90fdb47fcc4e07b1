import type { SnsNotification } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import { parseCloudWatchAlarm, parseCloudWatchNotification, regionFromArn } from './cloudwatch';
import { alertsOrThrow } from './parse-result';
import { parseSnsEnvelope } from './sns';
import { loadFixture as fixture } from './test-fixtures';
import { webhookIntegrations } from './webhook-integrations';

const now = new Date('2026-05-04T11:30:00.000Z');

function notification(name: string): SnsNotification {
  const result = parseSnsEnvelope(fixture(name));
  if (!result.ok || result.envelope.Type !== 'Notification') throw new Error(`${name} is not a Notification`);
  return result.envelope;
}
const alarmOf = (name: string) => JSON.parse(notification(name).Message);

describe('parseCloudWatchNotification', () => {
  it('raises an ALARM as a firing alert keyed by AlarmArn', () => {
    const [alert, ...rest] = alertsOrThrow(
      parseCloudWatchNotification(notification('sns-notification-alarm'), now),
    );
    expect(rest).toEqual([]);
    expect(alert).toMatchObject({
      title: 'prod-api-5xx',
      description: '5xx rate above 5% on prod API. severity=critical',
      severity: 'critical',
      status: 'firing',
      externalId: null,
      fingerprint: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:prod-api-5xx',
      source: webhookIntegrations.cloudwatch.source,
      labels: {
        alarm_name: 'prod-api-5xx',
        aws_account_id: '123456789012',
        region: 'us-east-1',
        namespace: 'AWS/ApiGateway',
        metric_name: '5XXError',
      },
      startedAt: new Date('2026-05-04T11:02:17.581Z'),
      endedAt: null,
    });
    expect(alert?.annotations).toMatchObject({
      new_state_value: 'ALARM',
      old_state_value: 'OK',
      region_name: 'US East (N. Virginia)',
      new_state_reason: expect.stringContaining('was greater than the threshold (5.0)'),
      trigger: { MetricName: '5XXError', Dimensions: [{ value: 'prod-api', name: 'ApiName' }], Threshold: 5 },
    });
  });

  it('resolves on OK with the same dedup key, ending at StateChangeTime', () => {
    const [alarm] = alertsOrThrow(parseCloudWatchNotification(notification('sns-notification-alarm'), now));
    const [ok] = alertsOrThrow(parseCloudWatchNotification(notification('sns-notification-ok'), now));
    expect(ok).toMatchObject({ status: 'resolved', endedAt: new Date('2026-05-04T11:21:02.377Z') });
    expect(ok?.fingerprint).toBe(alarm?.fingerprint);
  });
});

describe('parseCloudWatchAlarm', () => {
  it('ignores INSUFFICIENT_DATA by default and says so; can treat it as firing', () => {
    const alarm = { ...alarmOf('sns-notification-alarm'), NewStateValue: 'INSUFFICIENT_DATA' };
    expect(parseCloudWatchAlarm(JSON.stringify(alarm), now)).toEqual({
      ok: true,
      alerts: [],
      ignored: ['Alarm prod-api-5xx went to INSUFFICIENT_DATA; no alert raised or resolved.'],
    });
    const [alert] = alertsOrThrow(parseCloudWatchAlarm(alarm, now, { insufficientData: 'firing' }));
    expect(alert?.status).toBe('firing');
  });

  it('uses the default severity when the description names none', () => {
    const alarm = { ...alarmOf('sns-notification-alarm'), AlarmDescription: null };
    expect(alertsOrThrow(parseCloudWatchAlarm(alarm, now))[0]).toMatchObject({
      severity: 'warning',
      description: null,
    });
    expect(
      alertsOrThrow(parseCloudWatchAlarm(alarm, now, { defaultSeverity: 'critical' }))[0]?.severity,
    ).toBe('critical');
    const described = { ...alarm, AlarmDescription: 'Queue backlog. Severity: P3' };
    expect(alertsOrThrow(parseCloudWatchAlarm(described, now))[0]?.severity).toBe('warning');
  });

  it('accepts a hand-published partial alarm, keyed by account, topic region and name', () => {
    const message = JSON.stringify({
      AlarmName: 'manual-test',
      NewStateValue: 'ALARM',
      NewStateReason: 'testing',
    });
    const topicArn = 'arn:aws:sns:eu-west-1:123456789012:incident-alarms';
    const [alert] = alertsOrThrow(parseCloudWatchAlarm(message, now, { topicArn }));
    expect(alert).toMatchObject({
      title: 'manual-test',
      fingerprint: 'cw:unknown:eu-west-1:manual-test',
      labels: { alarm_name: 'manual-test', region: 'eu-west-1' },
      annotations: { new_state_reason: 'testing', new_state_value: 'ALARM' },
      startedAt: now,
    });
  });

  it('reports problems under Message', () => {
    expect(parseCloudWatchAlarm('Hello from the console', now)).toEqual({
      ok: false,
      problems: [{ path: 'Message', message: 'Must be the JSON of a CloudWatch alarm.' }],
    });
    expect(parseCloudWatchAlarm('[1]', now)).toEqual({
      ok: false,
      problems: [{ path: 'Message', message: 'Must be a CloudWatch alarm object.' }],
    });
    const alarm = { ...alarmOf('sns-notification-alarm'), NewStateValue: 'Alarm', StateChangeTime: 'now' };
    expect(parseCloudWatchAlarm(JSON.stringify(alarm), now)).toEqual({
      ok: false,
      problems: [
        { path: 'Message.NewStateValue', message: 'Must be ALARM, OK or INSUFFICIENT_DATA.' },
        { path: 'Message.StateChangeTime', message: 'Must be an RFC 3339 timestamp.' },
      ],
    });
  });
});

describe('regionFromArn', () => {
  it('reads field 4 of an ARN and nothing else', () => {
    expect(regionFromArn('arn:aws:cloudwatch:ca-central-1:123456789012:alarm:x')).toBe('ca-central-1');
    expect(regionFromArn('arn:aws:s3:::bucket')).toBeNull();
    expect(regionFromArn('US East (N. Virginia)')).toBeNull();
    expect(regionFromArn(undefined)).toBeNull();
  });
});
