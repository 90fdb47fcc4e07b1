import { describe, expect, it } from 'vitest';
import { parseAlertmanagerWebhook } from './alertmanager';
import { alertsOrThrow } from './parse-result';
import { loadFixture as fixture } from './test-fixtures';
import { webhookIntegrations } from './webhook-integrations';

const now = new Date('2026-05-04T09:45:00.000Z');
const parse = (payload: unknown) => alertsOrThrow(parseAlertmanagerWebhook(payload, now));

describe('parseAlertmanagerWebhook', () => {
  it('maps a firing group to one alert per instance', () => {
    const alerts = parse(fixture('alertmanager-firing'));
    expect(alerts).toHaveLength(2);
    expect(alerts[0]).toEqual({
      title: 'Replica pg-2 lags 312s behind primary',
      description: 'pg_replication_lag_seconds > 300 for 5m',
      severity: 'critical',
      status: 'firing',
      externalId: null,
      fingerprint: '3a5c9e0f1b2d4c67',
      source: webhookIntegrations.alertmanager.source,
      labels: {
        alertname: 'PostgresReplicaLag',
        cluster: 'prod-eu-1',
        instance: 'pg-2:9187',
        job: 'postgres',
        severity: 'critical',
        team: 'db',
      },
      annotations: {
        summary: 'Replica pg-2 lags 312s behind primary',
        description: 'pg_replication_lag_seconds > 300 for 5m',
        runbook_url: 'https://runbooks.example.com/pg/replica-lag',
        generator_url:
          'http://prometheus.example.com/graph?g0.expr=pg_replication_lag_seconds+%3E+300&g0.tab=1',
        group_key: '{}/{team="db"}:{alertname="PostgresReplicaLag", cluster="prod-eu-1"}',
      },
      startedAt: new Date('2026-05-04T09:12:31.512Z'),
      // endsAt is Go's zero time for firing alerts, not a date in year 1.
      endedAt: null,
    });
    expect(alerts[1]).toMatchObject({
      fingerprint: 'b81f04d27a9e6c13',
      title: 'Replica pg-3 lags 305s behind primary',
    });
    expect(alerts.map((a) => a.source)).toEqual(['metrics-alertmanager', 'metrics-alertmanager']);
  });

  it('resolves with the real endsAt', () => {
    const alerts = parse(fixture('alertmanager-resolved'));
    expect(alerts.map((a) => [a.fingerprint, a.status, a.endedAt?.toISOString()])).toEqual([
      ['3a5c9e0f1b2d4c67', 'resolved', '2026-05-04T09:41:01.512Z'],
      ['b81f04d27a9e6c13', 'resolved', '2026-05-04T09:39:16.001Z'],
    ]);
  });

  it('takes the status of each alert, not of the group', () => {
    const payload = fixture('alertmanager-mixed');
    expect(payload.status).toBe('firing');
    expect(parse(payload).map((a) => [a.status, a.endedAt?.toISOString() ?? null])).toEqual([
      ['firing', null],
      ['resolved', '2026-05-04T09:39:16.001Z'],
    ]);
  });

  it('titles by summary, then alertname, and describes by description', () => {
    const payload = fixture('alertmanager-firing');
    payload.alerts[0].annotations = { message: 'Lag is high' };
    payload.alerts[1].annotations = {};
    payload.alerts[1].labels = { instance: 'pg-3' };
    payload.commonAnnotations = {};
    const [first, second] = parse(payload);
    expect([first?.title, first?.description]).toEqual(['PostgresReplicaLag', 'Lag is high']);
    expect([second?.title, second?.description]).toEqual(['Untitled alert', null]);
  });

  it('lets commonAnnotations fill gaps but never override the alert', () => {
    const payload = fixture('alertmanager-firing');
    payload.alerts[0].annotations = { runbook_url: 'https://runbooks.example.com/own' };
    const [alert] = parse(payload);
    expect(alert?.annotations).toMatchObject({
      runbook_url: 'https://runbooks.example.com/own',
      description: 'pg_replication_lag_seconds > 300 for 5m',
    });
    expect(alert?.description).toBe('pg_replication_lag_seconds > 300 for 5m');
  });

  it('maps severity words, falling back to common and group labels, then warning', () => {
    const severities = (labels: Array<string | undefined>, common?: string, group?: string) => {
      const payload = fixture('alertmanager-firing');
      payload.alerts = labels.map((severity, i) => ({
        ...payload.alerts[0],
        labels: severity === undefined ? { alertname: 'A', n: `${i}` } : { alertname: 'A', severity },
      }));
      payload.commonLabels = common ? { severity: common } : {};
      payload.groupLabels = group ? { severity: group } : {};
      return parse(payload).map((a) => a.severity);
    };
    expect(severities(['P1', 'page', 'error', 'Warn', 'sev3', 'none', 'low', 'bogus', undefined])).toEqual([
      'critical',
      'critical',
      'warning',
      'warning',
      'warning',
      'info',
      'info',
      'warning',
      'warning',
    ]);
    expect(severities([undefined], 'info')).toEqual(['info']);
    expect(severities([undefined], undefined, 'critical')).toEqual(['critical']);
    expect(severities(['bogus'], 'critical')).toEqual(['critical']);
  });

  it('clips an over-long label value instead of refusing the group (a 400 would lose it)', () => {
    const payload = fixture('alertmanager-firing');
    payload.alerts[0].labels.query = 'q'.repeat(9000);
    const result = parseAlertmanagerWebhook(payload, now);
    expect(result.ok).toBe(true);
    const [first] = alertsOrThrow(result);
    expect(first!.labels.query).toHaveLength(4096);
    expect(first!.labels.query!.endsWith('…')).toBe(true);
    // The fingerprint the sender sent is kept as it was.
    expect(first!.fingerprint).toBe('3a5c9e0f1b2d4c67');
  });

  it('derives a stable fingerprint from the labels when none is sent', () => {
    const payload = fixture('alertmanager-firing');
    delete payload.alerts[0].fingerprint;
    payload.alerts[1].fingerprint = '';
    payload.alerts[1].labels = Object.fromEntries(Object.entries(payload.alerts[0].labels).reverse());
    const [first, second] = parse(payload);
    expect(first?.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(second?.fingerprint).toBe(first?.fingerprint);
  });

  it('reads Go timestamps with nanoseconds and offsets; missing times fall back to now', () => {
    const payload = fixture('alertmanager-resolved');
    payload.alerts[0].startsAt = '2026-05-04T11:12:31.512345678+02:00';
    payload.alerts[1].startsAt = '0001-01-01T00:00:00Z';
    payload.alerts[1].endsAt = '0001-01-01T00:00:00Z';
    const [first, second] = parse(payload);
    expect(first?.startedAt).toEqual(new Date('2026-05-04T09:12:31.512Z'));
    expect(second?.startedAt).toEqual(now);
    expect(second?.endedAt).toEqual(now);
  });

  it('ignores fields it does not know, old or new', () => {
    const payload = fixture('alertmanager-firing');
    payload.numFiring = 2;
    payload.routeLabels = { team: 'db' };
    payload.alerts[0].enrichments = { x: 1 };
    delete payload.version;
    delete payload.notification_reason;
    expect(parse(payload)[0]).toEqual(parse(fixture('alertmanager-firing'))[0]);
  });

  it('clips an overlong summary instead of rejecting the alert', () => {
    const payload = fixture('alertmanager-firing');
    payload.alerts[0].annotations.summary = 'x'.repeat(5000);
    const [alert] = parse(payload);
    expect(alert?.title).toHaveLength(1000);
    expect(alert?.title.endsWith('…')).toBe(true);
  });

  it('rejects what is not an Alertmanager payload, naming the field', () => {
    const payload = fixture('alertmanager-firing');
    payload.alerts[1].labels.severity = 3;
    payload.alerts[1].startsAt = 'yesterday';
    payload.alerts[1].status = 'pending';
    expect(parseAlertmanagerWebhook(payload, now)).toEqual({
      ok: false,
      problems: [
        { path: 'alerts[1].status', message: 'Must be one of: firing, resolved.' },
        { path: 'alerts[1].labels.severity', message: 'Label values must be strings.' },
        { path: 'alerts[1].startsAt', message: 'Must be an RFC 3339 timestamp.' },
      ],
    });
    const legacyGrafana = { title: '[Alerting] Panel', ruleId: 1, state: 'alerting', evalMatches: [] };
    expect(parseAlertmanagerWebhook(legacyGrafana, now)).toMatchObject({
      ok: false,
      problems: [{ path: 'alerts' }],
    });
  });
});
