// The Alertmanager and Grafana webhooks over HTTP, against the ingest app: what they send, what they get
// back, and what a user then sees of the alerts and incidents.
import { createHmac, randomBytes } from 'node:crypto';
import type { JsonBody } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  fixture,
  type IngestTestApp,
  ok,
  postAlertmanager,
  postGrafana,
  startIngestTestApp,
  variant,
} from './ingest-test-app';
import { oneIncidentPerAlert } from './one-incident-per-alert';

let t: IngestTestApp;
beforeAll(async () => {
  t = await startIngestTestApp();
  await oneIncidentPerAlert(t.runtime.ctx);
});
afterAll(() => t.runtime.cleanup());

const alertsOf = (source: string) => t.alertsOf(source);
const alertById = (source: string, id: string) => t.alertById(source, id);
const incident = (id: string) => t.incident(id);
const timelineTypes = (id: string) => t.timelineTypes(id);
const incidentAlerts = (id: string) => t.incidentAlerts(id);

describe('Alertmanager: POST /api/v1/webhooks/metrics-alertmanager', () => {
  const firing = fixture('alertmanager-firing');
  let first: JsonBody;

  it('creates one alert per fixture alert and an incident for each, without any token', async () => {
    first = await ok(await postAlertmanager(t.app, firing));
    expect(first).toMatchObject({
      received: 2,
      created: 2,
      updated: 0,
      resolved: 0,
      suppressed: 0,
      incidents_created: 2,
    });
    expect(first.alerts).toHaveLength(2);
    for (const alert of first.alerts) {
      expect(alert).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        external_id: null,
        status: 'firing',
        incident_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
    }
    expect(new Set(first.alerts.map((a: JsonBody) => a.incident_id)).size).toBe(2);

    const stored = await alertsOf('metrics-alertmanager');
    expect(stored).toHaveLength(2);
    const pg2 = stored.find((a) => a.fingerprint === '3a5c9e0f1b2d4c67');
    expect(pg2).toMatchObject({
      id: first.alerts[0].id,
      title: 'Replica pg-2 lags 312s behind primary',
      description: 'pg_replication_lag_seconds > 300 for 5m',
      severity: 'critical',
      status: 'firing',
      external_id: null,
      source: 'metrics-alertmanager',
      labels: firing.alerts[0].labels,
      annotations: {
        summary: 'Replica pg-2 lags 312s behind primary',
        runbook_url: 'https://runbooks.example.com/pg/replica-lag',
      },
      started_at: '2026-05-04T09:12:31.512Z',
      ended_at: null,
      incident_id: first.alerts[0].incident_id,
    });
    expect(stored.find((a) => a.fingerprint === 'b81f04d27a9e6c13')).toMatchObject({
      id: first.alerts[1].id,
      title: 'Replica pg-3 lags 305s behind primary',
      severity: 'critical',
      started_at: '2026-05-04T09:12:46.001Z',
    });

    const titles = ['Replica pg-2 lags 312s behind primary', 'Replica pg-3 lags 305s behind primary'];
    for (const [index, alert] of first.alerts.entries()) {
      expect(await incident(alert.incident_id)).toMatchObject({
        id: alert.incident_id,
        title: titles[index],
        severity: 'critical',
        status: 'triggered',
        source: 'alert',
        alert_count: 1,
        all_alerts_resolved: false,
      });
      expect(await timelineTypes(alert.incident_id)).toEqual(
        expect.arrayContaining(['incident_created', 'alert_linked']),
      );
      expect((await incidentAlerts(alert.incident_id)).map((a) => a.id)).toEqual([alert.id]);
    }
  });

  it('deduplicates by fingerprint: the same payload again updates and opens nothing', async () => {
    const again = await ok(await postAlertmanager(t.app, firing));
    expect(again).toMatchObject({ received: 2, created: 0, updated: 2, resolved: 0, incidents_created: 0 });
    expect(again.alerts).toEqual(first.alerts);
    expect(await alertsOf('metrics-alertmanager')).toHaveLength(2);
    expect((await incident(first.alerts[0].incident_id)).alert_count).toBe(1);
  });

  it('resolves them with the resolved fixture; the incidents are flagged, not resolved', async () => {
    const resolved = await ok(await postAlertmanager(t.app, fixture('alertmanager-resolved')));
    expect(resolved).toMatchObject({ received: 2, created: 0, resolved: 2, incidents_created: 0 });
    expect(resolved.alerts).toEqual(first.alerts.map((a: JsonBody) => ({ ...a, status: 'resolved' })));

    expect(await alertById('metrics-alertmanager', first.alerts[0].id)).toMatchObject({
      status: 'resolved',
      ended_at: '2026-05-04T09:41:01.512Z',
    });
    expect(await alertById('metrics-alertmanager', first.alerts[1].id)).toMatchObject({
      status: 'resolved',
      ended_at: '2026-05-04T09:39:16.001Z',
    });
    for (const { incident_id } of first.alerts) {
      expect(await incident(incident_id)).toMatchObject({ status: 'triggered', all_alerts_resolved: true });
      expect((await timelineTypes(incident_id)).filter((t) => t === 'alerts_all_resolved')).toHaveLength(1);
    }

    // Alertmanager re-sends the resolved group: nothing changes, no second flag entry.
    const repeat = await ok(await postAlertmanager(t.app, fixture('alertmanager-resolved')));
    expect(repeat).toMatchObject({ received: 2, created: 0, resolved: 0, incidents_created: 0 });
    expect(
      (await timelineTypes(first.alerts[0].incident_id)).filter((t) => t === 'alerts_all_resolved'),
    ).toHaveLength(1);
  });

  it('a resolved alert that fires again is firing again, on its still open incident', async () => {
    const refired = await ok(await postAlertmanager(t.app, firing));
    expect(refired).toMatchObject({ received: 2, created: 0, incidents_created: 0 });
    expect(refired.alerts).toEqual(first.alerts);
    expect(await alertById('metrics-alertmanager', first.alerts[0].id)).toMatchObject({
      status: 'firing',
      ended_at: null,
    });
    expect(await incident(first.alerts[0].incident_id)).toMatchObject({
      status: 'triggered',
      all_alerts_resolved: false,
    });
  });

  it('the mixed fixture: a group still firing with one member resolved', async () => {
    const opened = await ok(await postAlertmanager(t.app, variant('alertmanager-firing', 'mixed')));
    expect(opened).toMatchObject({ created: 2, incidents_created: 2 });

    const mixed = await ok(await postAlertmanager(t.app, variant('alertmanager-mixed', 'mixed')));
    expect(mixed).toMatchObject({
      received: 2,
      created: 0,
      updated: 1,
      resolved: 1,
      suppressed: 0,
      incidents_created: 0,
    });
    expect(mixed.alerts).toEqual([
      { ...opened.alerts[0], status: 'firing' },
      { ...opened.alerts[1], status: 'resolved' },
    ]);
    expect(await alertById('metrics-alertmanager', opened.alerts[1].id)).toMatchObject({
      status: 'resolved',
      ended_at: '2026-05-04T09:39:16.001Z',
    });
    expect(await incident(opened.alerts[0].incident_id)).toMatchObject({ all_alerts_resolved: false });
    expect(await timelineTypes(opened.alerts[0].incident_id)).not.toContain('alerts_all_resolved');
    expect(await incident(opened.alerts[1].incident_id)).toMatchObject({
      status: 'triggered',
      all_alerts_resolved: true,
    });
    expect(await timelineTypes(opened.alerts[1].incident_id)).toContain('alerts_all_resolved');
  });

  it('the mixed fixture about unknown alerts: both stored, only the firing one opens an incident', async () => {
    const res = await ok(await postAlertmanager(t.app, variant('alertmanager-mixed', 'fresh-mixed')));
    expect(res).toMatchObject({ received: 2, created: 2, incidents_created: 1 });
    expect(res.alerts[0]).toMatchObject({ status: 'firing', incident_id: expect.any(String) });
    expect(res.alerts[1]).toMatchObject({ status: 'resolved', incident_id: null });
    expect(await alertById('metrics-alertmanager', res.alerts[1].id)).toMatchObject({
      status: 'resolved',
      ended_at: '2026-05-04T09:39:16.001Z',
      incident_id: null,
    });
  });

  it('maps alert severities to incident severities: critical→critical, warning→high', async () => {
    const payload = variant('alertmanager-firing', 'severity');
    payload.alerts[1].labels.severity = 'warning';
    delete payload.commonLabels.severity;
    const res = await ok(await postAlertmanager(t.app, payload));
    expect(res).toMatchObject({ created: 2, incidents_created: 2 });
    expect(await alertById('metrics-alertmanager', res.alerts[1].id)).toMatchObject({ severity: 'warning' });
    expect((await incident(res.alerts[0].incident_id)).severity).toBe('critical');
    expect((await incident(res.alerts[1].incident_id)).severity).toBe('high');
  });

  it('with a bearer token set, refuses requests without it (storing nothing); null opens it again', async () => {
    const token = `am-${randomBytes(16).toString('hex')}`;
    const view = await t.putSetting('metrics-alertmanager', { bearer_token: token });
    expect(view.metrics_alertmanager).toEqual({ bearer_token_set: true });
    expect(JSON.stringify(view)).not.toContain(token);
    try {
      const payload = variant('alertmanager-firing', 'bearer');
      const before = (await alertsOf('metrics-alertmanager')).length;

      await expectError(await postAlertmanager(t.app, payload), 401, 'invalid_signature');
      await expectError(
        await postAlertmanager(t.app, payload, { authorization: 'Bearer not-the-token-at-all' }),
        401,
        'invalid_signature',
      );
      await expectError(
        await postAlertmanager(t.app, payload, {
          authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}`,
        }),
        401,
        'invalid_signature',
      );
      // An admin's session token is not the integration's token either.
      await expectError(
        await postAlertmanager(t.app, payload, { authorization: `Bearer ${t.admin.token}` }),
        401,
        'invalid_signature',
      );
      expect(await alertsOf('metrics-alertmanager')).toHaveLength(before);

      const accepted = await ok(await postAlertmanager(t.app, payload, { authorization: `Bearer ${token}` }));
      expect(accepted).toMatchObject({ received: 2, created: 2 });
      expect(await alertsOf('metrics-alertmanager')).toHaveLength(before + 2);
    } finally {
      const cleared = await t.putSetting('metrics-alertmanager', { bearer_token: null });
      expect(cleared.metrics_alertmanager).toEqual({ bearer_token_set: false });
    }
    const open = await ok(await postAlertmanager(t.app, variant('alertmanager-firing', 'reopened')));
    expect(open).toMatchObject({ created: 2 });
  });
});

describe('Grafana: POST /api/v1/webhooks/dashboard-alerting', () => {
  it('firing then resolved, end to end', async () => {
    const firing = fixture('grafana-firing');
    const created = await ok(await postGrafana(t.app, firing));
    expect(created).toMatchObject({ received: 1, created: 1, updated: 0, resolved: 0, incidents_created: 1 });
    const [{ id, incident_id }] = created.alerts;
    expect(created.alerts[0]).toEqual({ id, external_id: null, status: 'firing', incident_id });

    expect(await alertById('dashboard-alerting', id)).toMatchObject({
      title: 'Disk on db-1 is 92% full',
      severity: 'warning',
      status: 'firing',
      source: 'dashboard-alerting',
      fingerprint: '7c0a9b6e2f1d3e45',
      labels: firing.alerts[0].labels,
      annotations: {
        summary: 'Disk on db-1 is 92% full',
        runbook_url: 'https://runbooks.example.com/disk',
        dashboard_url: firing.alerts[0].dashboardURL,
      },
      started_at: '2026-05-04T10:00:00.000Z',
      ended_at: null,
      incident_id,
    });
    expect(await incident(incident_id)).toMatchObject({
      title: 'Disk on db-1 is 92% full',
      severity: 'high',
      status: 'triggered',
      alert_count: 1,
      all_alerts_resolved: false,
    });

    const again = await ok(await postGrafana(t.app, firing));
    expect(again).toMatchObject({ created: 0, updated: 1, incidents_created: 0 });

    const resolved = await ok(await postGrafana(t.app, fixture('grafana-resolved')));
    expect(resolved).toMatchObject({ received: 1, created: 0, resolved: 1, incidents_created: 0 });
    expect(resolved.alerts).toEqual([{ id, external_id: null, status: 'resolved', incident_id }]);
    expect(await alertById('dashboard-alerting', id)).toMatchObject({
      status: 'resolved',
      ended_at: '2026-05-04T10:25:00.000Z',
    });
    expect(await incident(incident_id)).toMatchObject({ status: 'triggered', all_alerts_resolved: true });
    expect(await timelineTypes(incident_id)).toContain('alerts_all_resolved');
    expect((await incidentAlerts(incident_id)).map((a) => a.status)).toEqual(['resolved']);
  });

  it('ignores an Authorization header it does not need', async () => {
    const res = await postGrafana(t.app, variant('grafana-firing', 'authz'), {
      authorization: 'Bearer not-a-session',
    });
    expect(await ok(res)).toMatchObject({ created: 1 });
  });

  it('with an HMAC secret: hex HMAC-SHA256(secret, body) accepted, anything else 401', async () => {
    const secret = `grafana-${randomBytes(16).toString('hex')}`;
    const view = await t.putSetting('dashboard-alerting', { hmac_secret: secret });
    expect(view.dashboard_alerting).toEqual({ hmac_secret_set: true, timestamp_header: null });
    try {
      const body = JSON.stringify(variant('grafana-firing', 'hmac'));
      const signature = createHmac('sha256', secret).update(body).digest('hex');
      const before = (await alertsOf('dashboard-alerting')).length;

      await expectError(await postGrafana(t.app, body), 401, 'invalid_signature');
      await expectError(
        await postGrafana(t.app, body, {
          'x-grafana-alerting-signature': createHmac('sha256', 'another-secret-of-16')
            .update(body)
            .digest('hex'),
        }),
        401,
        'invalid_signature',
      );
      // The signature of another body (one changed byte) does not cover this one.
      await expectError(
        await postGrafana(t.app, body.replace('92% full', '93% full'), {
          'x-grafana-alerting-signature': signature,
        }),
        401,
        'invalid_signature',
      );
      expect(await alertsOf('dashboard-alerting')).toHaveLength(before);

      const accepted = await ok(
        await postGrafana(t.app, body, { 'x-grafana-alerting-signature': signature }),
      );
      expect(accepted).toMatchObject({ received: 1, created: 1, incidents_created: 1 });
      expect(await alertsOf('dashboard-alerting')).toHaveLength(before + 1);
    } finally {
      await t.putSetting('dashboard-alerting', { hmac_secret: null });
    }
  });

  it('with a timestamp header configured, the signature covers `timestamp:body`', async () => {
    const secret = `grafana-ts-${randomBytes(16).toString('hex')}`;
    const header = 'X-Grafana-Alerting-Timestamp';
    const view = await t.putSetting('dashboard-alerting', { hmac_secret: secret, timestamp_header: header });
    expect(view.dashboard_alerting).toEqual({ hmac_secret_set: true, timestamp_header: header });
    try {
      const body = JSON.stringify(variant('grafana-firing', 'hmac-ts'));
      const timestamp = String(Math.floor(Date.now() / 1000));
      const hmac = (message: string) => createHmac('sha256', secret).update(message).digest('hex');
      const before = (await alertsOf('dashboard-alerting')).length;

      // The body alone, with the timestamp sent, is not what Grafana signs then.
      await expectError(
        await postGrafana(t.app, body, { [header]: timestamp, 'x-grafana-alerting-signature': hmac(body) }),
        401,
        'invalid_signature',
      );
      // A signature for another timestamp.
      await expectError(
        await postGrafana(t.app, body, {
          [header]: String(Number(timestamp) + 60),
          'x-grafana-alerting-signature': hmac(`${timestamp}:${body}`),
        }),
        401,
        'invalid_signature',
      );
      // No timestamp at all, and a correctly signed but stale one (a replay), are refused too.
      await expectError(
        await postGrafana(t.app, body, { 'x-grafana-alerting-signature': hmac(body) }),
        401,
        'invalid_signature',
      );
      const stale = String(Number(timestamp) - 10 * 60);
      await expectError(
        await postGrafana(t.app, body, {
          [header]: stale,
          'x-grafana-alerting-signature': hmac(`${stale}:${body}`),
        }),
        401,
        'invalid_signature',
      );
      expect(await alertsOf('dashboard-alerting')).toHaveLength(before);

      const accepted = await ok(
        await postGrafana(t.app, body, {
          [header]: timestamp,
          'x-grafana-alerting-signature': hmac(`${timestamp}:${body}`),
        }),
      );
      expect(accepted).toMatchObject({ received: 1, created: 1 });
    } finally {
      const cleared = await t.putSetting('dashboard-alerting', { hmac_secret: null });
      expect(cleared.dashboard_alerting).toEqual({ hmac_secret_set: false, timestamp_header: null });
    }
    expect(await ok(await postGrafana(t.app, variant('grafana-firing', 'hmac-cleared')))).toMatchObject({
      created: 1,
    });
  });
});
