// The three source webhooks (CONTRACT.md §6, reference/alert-sources.md §1–§3) over HTTP, against the
// embedded server app: what Alertmanager, Grafana and SNS send, what they get back, and what a user then
// sees through the API. SNS is a local fake with a throw-away certificate that signs on its own.
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  createTestRuntime,
  createTestUser,
  type TestRuntime,
  type TestUser,
} from '@firebreak/runtime/testing';
import { createServerApp } from '@firebreak/server';
import {
  bodyOf,
  type FakeSns,
  type JsonBody,
  type SnsSignatureVersion,
  startFakeSns,
  type TestClient,
  testClient,
} from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const FIXTURES = new URL('../packages/domain/src/alert-sources/fixtures/', import.meta.url);
const fixture = (name: string): JsonBody =>
  JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8'));

const AM = '/api/v1/webhooks/metrics-alertmanager';
const GRAFANA = '/api/v1/webhooks/dashboard-alerting';
const SNS = '/api/v1/webhooks/cloud-monitor';
const SNS_CONTENT_TYPE = 'text/plain; charset=UTF-8';
const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:incident-alarms';
const MiB = 1024 * 1024;

type App = ReturnType<typeof createServerApp>;

let sns: FakeSns;
let stranger: FakeSns;
let runtime: TestRuntime;
let app: App;
let api: TestClient;
let admin: TestUser;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function startRuntime(env: Record<string, string>) {
  const rt = await createTestRuntime({
    env: { SNS_CERT_URL_PATTERN: `^${escapeRegExp(sns.origin)}/`, ...env },
  });
  const server = createServerApp({ ctx: rt.ctx, ready: rt.ready, config: rt.config });
  return { rt, server };
}

beforeAll(async () => {
  sns = await startFakeSns();
  stranger = await startFakeSns(); // another key and certificate: an attacker's own "SNS"
  ({ rt: runtime, server: app } = await startRuntime({ RATE_LIMIT_REQUESTS_PER_MINUTE: '100000' }));
  api = testClient(app);
  admin = await createTestUser(runtime, 'admin');
});
afterAll(async () => {
  await runtime?.cleanup();
  await sns?.close();
  await stranger?.close();
});

// --- helpers: senders ------------------------------------------------------------------------------

function post(
  target: App,
  path: string,
  body: string | object,
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(
    target.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

const postAlertmanager = (body: string | object, headers: Record<string, string> = {}, target = app) =>
  post(target, AM, body, { 'user-agent': 'Alertmanager/0.28.1', ...headers });
const postGrafana = (body: string | object, headers: Record<string, string> = {}, target = app) =>
  post(target, GRAFANA, body, { 'user-agent': 'Grafana', ...headers });

/** As SNS delivers: `text/plain` by default, the `x-amz-sns-*` headers, a pretty-printed JSON body. */
function postSns(envelope: JsonBody, options: { contentType?: string; target?: App } = {}) {
  const headers: Record<string, string> = {
    'content-type': options.contentType ?? SNS_CONTENT_TYPE,
    'user-agent': 'Amazon Simple Notification Service Agent',
    'x-amz-sns-message-type': String(envelope.Type),
    'x-amz-sns-message-id': String(envelope.MessageId),
    'x-amz-sns-topic-arn': String(envelope.TopicArn),
  };
  if (envelope.Type !== 'SubscriptionConfirmation') {
    headers['x-amz-sns-subscription-arn'] = `${TOPIC_ARN}:4c1e6a2b-8f0d-4b7e-9a3c-5d2e1f0a9b8c`;
  }
  return post(options.target ?? app, SNS, JSON.stringify(envelope, null, 2), headers);
}

async function ok(res: Response): Promise<JsonBody> {
  const body = await bodyOf(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body;
}

async function expectError(res: Response, status: number, code: string): Promise<JsonBody> {
  const body = await bodyOf(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(body).toMatchObject({
    error: { code, message: expect.any(String), request_id: expect.any(String) },
  });
  return body;
}

// --- helpers: what a user sees ---------------------------------------------------------------------

async function read(path: string): Promise<JsonBody> {
  return ok(await api('GET', path, { token: admin.token }));
}
const alertsOf = async (source: string): Promise<JsonBody[]> =>
  (await read(`/api/v1/alerts?source=${source}&limit=1000`)).alerts;
const alertById = async (source: string, id: string): Promise<JsonBody> =>
  (await alertsOf(source)).find((alert) => alert.id === id);
const incident = (id: string) => read(`/api/v1/incidents/${id}`);
const timelineTypes = async (id: string): Promise<string[]> =>
  (await read(`/api/v1/incidents/${id}/timeline`)).entries.map((entry: JsonBody) => entry.type);
const incidentAlerts = async (id: string): Promise<JsonBody[]> =>
  (await read(`/api/v1/incidents/${id}/alerts`)).alerts;

async function putSetting(path: string, body: object): Promise<JsonBody> {
  return ok(await api('PUT', `/api/v1/settings/integrations/${path}`, { token: admin.token, body }));
}

/**
 * An Alertmanager or Grafana fixture about other alert instances: fingerprints, instances and summaries
 * derived from `tag`, so the same tag names the same alerts in the firing, mixed and resolved fixtures.
 */
function variant(name: string, tag: string): JsonBody {
  const payload = fixture(name);
  for (const alert of payload.alerts) {
    alert.fingerprint = createHash('sha256').update(`${tag}:${alert.fingerprint}`).digest('hex').slice(0, 16);
    alert.labels.instance = `${tag}-${alert.labels.instance}`;
    alert.annotations.summary = `[${tag}] ${alert.annotations.summary}`;
  }
  return payload;
}

// ================================================================================================

describe('Alertmanager: POST /api/v1/webhooks/metrics-alertmanager', () => {
  const firing = fixture('alertmanager-firing');
  let first: JsonBody;

  it('creates one alert per fixture alert and an incident for each, without any token', async () => {
    first = await ok(await postAlertmanager(firing));
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
    const again = await ok(await postAlertmanager(firing));
    expect(again).toMatchObject({ received: 2, created: 0, updated: 2, resolved: 0, incidents_created: 0 });
    expect(again.alerts).toEqual(first.alerts);
    expect(await alertsOf('metrics-alertmanager')).toHaveLength(2);
    expect((await incident(first.alerts[0].incident_id)).alert_count).toBe(1);
  });

  it('resolves them with the resolved fixture; the incidents are flagged, not resolved', async () => {
    const resolved = await ok(await postAlertmanager(fixture('alertmanager-resolved')));
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
    const repeat = await ok(await postAlertmanager(fixture('alertmanager-resolved')));
    expect(repeat).toMatchObject({ received: 2, created: 0, resolved: 0, incidents_created: 0 });
    expect(
      (await timelineTypes(first.alerts[0].incident_id)).filter((t) => t === 'alerts_all_resolved'),
    ).toHaveLength(1);
  });

  it('a resolved alert that fires again is firing again, on its still open incident', async () => {
    const refired = await ok(await postAlertmanager(firing));
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
    const opened = await ok(await postAlertmanager(variant('alertmanager-firing', 'mixed')));
    expect(opened).toMatchObject({ created: 2, incidents_created: 2 });

    const mixed = await ok(await postAlertmanager(variant('alertmanager-mixed', 'mixed')));
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
    const res = await ok(await postAlertmanager(variant('alertmanager-mixed', 'fresh-mixed')));
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
    const res = await ok(await postAlertmanager(payload));
    expect(res).toMatchObject({ created: 2, incidents_created: 2 });
    expect(await alertById('metrics-alertmanager', res.alerts[1].id)).toMatchObject({ severity: 'warning' });
    expect((await incident(res.alerts[0].incident_id)).severity).toBe('critical');
    expect((await incident(res.alerts[1].incident_id)).severity).toBe('high');
  });

  it('with a bearer token set, refuses requests without it (storing nothing); null opens it again', async () => {
    const token = `am-${randomBytes(16).toString('hex')}`;
    const view = await putSetting('metrics-alertmanager', { bearer_token: token });
    expect(view.metrics_alertmanager).toEqual({ bearer_token_set: true });
    expect(JSON.stringify(view)).not.toContain(token);
    try {
      const payload = variant('alertmanager-firing', 'bearer');
      const before = (await alertsOf('metrics-alertmanager')).length;

      await expectError(await postAlertmanager(payload), 401, 'invalid_signature');
      await expectError(
        await postAlertmanager(payload, { authorization: 'Bearer not-the-token-at-all' }),
        401,
        'invalid_signature',
      );
      await expectError(
        await postAlertmanager(payload, {
          authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}`,
        }),
        401,
        'invalid_signature',
      );
      // An admin's session token is not the integration's token either.
      await expectError(
        await postAlertmanager(payload, { authorization: `Bearer ${admin.token}` }),
        401,
        'invalid_signature',
      );
      expect(await alertsOf('metrics-alertmanager')).toHaveLength(before);

      const accepted = await ok(await postAlertmanager(payload, { authorization: `Bearer ${token}` }));
      expect(accepted).toMatchObject({ received: 2, created: 2 });
      expect(await alertsOf('metrics-alertmanager')).toHaveLength(before + 2);
    } finally {
      const cleared = await putSetting('metrics-alertmanager', { bearer_token: null });
      expect(cleared.metrics_alertmanager).toEqual({ bearer_token_set: false });
    }
    const open = await ok(await postAlertmanager(variant('alertmanager-firing', 'reopened')));
    expect(open).toMatchObject({ created: 2 });
  });
});

// ================================================================================================

describe('Grafana: POST /api/v1/webhooks/dashboard-alerting', () => {
  it('firing then resolved, end to end', async () => {
    const firing = fixture('grafana-firing');
    const created = await ok(await postGrafana(firing));
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

    const again = await ok(await postGrafana(firing));
    expect(again).toMatchObject({ created: 0, updated: 1, incidents_created: 0 });

    const resolved = await ok(await postGrafana(fixture('grafana-resolved')));
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
    const res = await postGrafana(variant('grafana-firing', 'authz'), {
      authorization: 'Bearer not-a-session',
    });
    expect(await ok(res)).toMatchObject({ created: 1 });
  });

  it('with an HMAC secret: hex HMAC-SHA256(secret, body) accepted, anything else 401', async () => {
    const secret = `grafana-${randomBytes(16).toString('hex')}`;
    const view = await putSetting('dashboard-alerting', { hmac_secret: secret });
    expect(view.dashboard_alerting).toEqual({ hmac_secret_set: true, timestamp_header: null });
    try {
      const body = JSON.stringify(variant('grafana-firing', 'hmac'));
      const signature = createHmac('sha256', secret).update(body).digest('hex');
      const before = (await alertsOf('dashboard-alerting')).length;

      await expectError(await postGrafana(body), 401, 'invalid_signature');
      await expectError(
        await postGrafana(body, {
          'x-grafana-alerting-signature': createHmac('sha256', 'another-secret-of-16')
            .update(body)
            .digest('hex'),
        }),
        401,
        'invalid_signature',
      );
      // The signature of another body (one changed byte) does not cover this one.
      await expectError(
        await postGrafana(body.replace('92% full', '93% full'), {
          'x-grafana-alerting-signature': signature,
        }),
        401,
        'invalid_signature',
      );
      expect(await alertsOf('dashboard-alerting')).toHaveLength(before);

      const accepted = await ok(await postGrafana(body, { 'x-grafana-alerting-signature': signature }));
      expect(accepted).toMatchObject({ received: 1, created: 1, incidents_created: 1 });
      expect(await alertsOf('dashboard-alerting')).toHaveLength(before + 1);
    } finally {
      await putSetting('dashboard-alerting', { hmac_secret: null });
    }
  });

  it('with a timestamp header configured, the signature covers `timestamp:body`', async () => {
    const secret = `grafana-ts-${randomBytes(16).toString('hex')}`;
    const header = 'X-Grafana-Alerting-Timestamp';
    const view = await putSetting('dashboard-alerting', { hmac_secret: secret, timestamp_header: header });
    expect(view.dashboard_alerting).toEqual({ hmac_secret_set: true, timestamp_header: header });
    try {
      const body = JSON.stringify(variant('grafana-firing', 'hmac-ts'));
      const timestamp = String(Math.floor(Date.now() / 1000));
      const hmac = (message: string) => createHmac('sha256', secret).update(message).digest('hex');
      const before = (await alertsOf('dashboard-alerting')).length;

      // The body alone, with the timestamp sent, is not what Grafana signs then.
      await expectError(
        await postGrafana(body, { [header]: timestamp, 'x-grafana-alerting-signature': hmac(body) }),
        401,
        'invalid_signature',
      );
      // A signature for another timestamp.
      await expectError(
        await postGrafana(body, {
          [header]: String(Number(timestamp) + 60),
          'x-grafana-alerting-signature': hmac(`${timestamp}:${body}`),
        }),
        401,
        'invalid_signature',
      );
      // No timestamp at all, and a correctly signed but stale one (a replay), are refused too.
      await expectError(
        await postGrafana(body, { 'x-grafana-alerting-signature': hmac(body) }),
        401,
        'invalid_signature',
      );
      const stale = String(Number(timestamp) - 10 * 60);
      await expectError(
        await postGrafana(body, {
          [header]: stale,
          'x-grafana-alerting-signature': hmac(`${stale}:${body}`),
        }),
        401,
        'invalid_signature',
      );
      expect(await alertsOf('dashboard-alerting')).toHaveLength(before);

      const accepted = await ok(
        await postGrafana(body, {
          [header]: timestamp,
          'x-grafana-alerting-signature': hmac(`${timestamp}:${body}`),
        }),
      );
      expect(accepted).toMatchObject({ received: 1, created: 1 });
    } finally {
      const cleared = await putSetting('dashboard-alerting', { hmac_secret: null });
      expect(cleared.dashboard_alerting).toEqual({ hmac_secret_set: false, timestamp_header: null });
    }
    expect(await ok(await postGrafana(variant('grafana-firing', 'hmac-cleared')))).toMatchObject({
      created: 1,
    });
  });
});

// ================================================================================================

/** A new CloudWatch alarm notification: the ALARM fixture with a fresh MessageId and alarm fields changed. */
function notification(alarm: Record<string, unknown>): JsonBody {
  const payload = fixture('sns-notification-alarm');
  const document = { ...JSON.parse(payload.Message), ...alarm };
  return { ...payload, MessageId: randomUUID(), Message: JSON.stringify(document) };
}

/** Some other alarm, for requests that are refused before its content matters. */
function unrelatedAlarm(): JsonBody {
  return notification({
    AlarmName: 'not-sns',
    AlarmArn: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:x',
  });
}

/** A confirmation message whose SubscribeURL points at the fake, with a token of its own. */
function confirmation(name: 'sns-subscription-confirmation' | 'sns-unsubscribe-confirmation'): JsonBody {
  const payload = fixture(name);
  const token = randomBytes(40).toString('hex');
  return {
    ...payload,
    MessageId: randomUUID(),
    Token: token,
    SubscribeURL: sns.subscribeUrl(TOPIC_ARN, token),
  };
}

const signed = (envelope: JsonBody, version: SnsSignatureVersion = '2') => sns.sign(envelope, version);

describe('CloudWatch through SNS: POST /api/v1/webhooks/cloud-monitor', () => {
  let certificateFetchesBefore: number;
  let alarm: JsonBody;

  beforeAll(() => {
    certificateFetchesBefore = sns.certificateRequests.length;
  });

  for (const version of ['1', '2'] as const) {
    it(`confirms a SubscriptionConfirmation signed with SignatureVersion ${version}`, async () => {
      const message = confirmation('sns-subscription-confirmation');
      const confirmationsBefore = sns.confirmations.length;
      await ok(await postSns(signed(message, version)));
      expect(sns.confirmations.slice(confirmationsBefore)).toEqual([
        expect.objectContaining({ topicArn: TOPIC_ARN, token: message.Token }),
      ]);
      expect(await alertsOf('cloud-monitor')).toEqual([]);
    });
  }

  it('an ALARM Notification becomes a firing alert and an incident', async () => {
    alarm = await ok(await postSns(signed(fixture('sns-notification-alarm'))));
    expect(alarm).toMatchObject({
      received: 1,
      created: 1,
      updated: 0,
      resolved: 0,
      suppressed: 0,
      incidents_created: 1,
    });
    const [{ id, incident_id }] = alarm.alerts;
    expect(alarm.alerts).toEqual([
      { id, external_id: null, status: 'firing', incident_id: expect.any(String) },
    ]);
    expect(await alertById('cloud-monitor', id)).toMatchObject({
      title: 'prod-api-5xx',
      description: '5xx rate above 5% on prod API. severity=critical',
      severity: 'critical',
      status: 'firing',
      source: 'cloud-monitor',
      fingerprint: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:prod-api-5xx',
      labels: { alarm_name: 'prod-api-5xx', region: 'us-east-1', aws_account_id: '123456789012' },
      started_at: '2026-05-04T11:02:17.581Z',
      ended_at: null,
      incident_id,
    });
    expect(await incident(incident_id)).toMatchObject({
      title: 'prod-api-5xx',
      severity: 'critical',
      status: 'triggered',
      source: 'alert',
      alert_count: 1,
    });
  });

  it('a redelivered ALARM (same MessageId, as SNS retries) opens nothing new', async () => {
    const again = await ok(await postSns(signed(fixture('sns-notification-alarm'), '1')));
    expect(again).toMatchObject({ received: 1, created: 0, updated: 1, incidents_created: 0 });
    expect(again.alerts).toEqual(alarm.alerts);
  });

  it('the OK Notification resolves the alert and flags the incident', async () => {
    const res = await ok(await postSns(signed(fixture('sns-notification-ok'))));
    expect(res).toMatchObject({ received: 1, created: 0, resolved: 1, incidents_created: 0 });
    const [{ id, incident_id }] = alarm.alerts;
    expect(res.alerts).toEqual([{ id, external_id: null, status: 'resolved', incident_id }]);
    expect(await alertById('cloud-monitor', id)).toMatchObject({
      status: 'resolved',
      ended_at: '2026-05-04T11:21:02.377Z',
    });
    expect(await incident(incident_id)).toMatchObject({ status: 'triggered', all_alerts_resolved: true });
    expect(await timelineTypes(incident_id)).toContain('alerts_all_resolved');
  });

  it('verifies a message without Subject and with non-ASCII text (only present keys are signed)', async () => {
    const message = fixture('sns-notification-alarm');
    delete message.Subject;
    delete message.UnsubscribeURL;
    message.MessageId = randomUUID();
    message.Message = JSON.stringify({
      AlarmName: 'batch-queue-depth',
      AlarmDescription: 'Warteschlange über 10 000 Aufträge — severity=warning',
      NewStateValue: 'ALARM',
      NewStateReason: 'hand-published',
    });
    const res = await ok(await postSns(signed(message)));
    expect(res).toMatchObject({ created: 1, incidents_created: 1 });
    expect(await alertById('cloud-monitor', res.alerts[0].id)).toMatchObject({
      title: 'batch-queue-depth',
      description: 'Warteschlange über 10 000 Aufträge — severity=warning',
      severity: 'warning',
    });
    expect((await incident(res.alerts[0].incident_id)).severity).toBe('high');
  });

  it('ignores INSUFFICIENT_DATA: 200, no alert', async () => {
    const before = (await alertsOf('cloud-monitor')).length;
    const message = notification({
      AlarmName: 'insufficient',
      AlarmArn: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:insufficient',
      NewStateValue: 'INSUFFICIENT_DATA',
    });
    const res = await ok(await postSns(signed(message)));
    expect(res).toMatchObject({ created: 0, updated: 0, resolved: 0, incidents_created: 0, alerts: [] });
    expect(await alertsOf('cloud-monitor')).toHaveLength(before);
  });

  it('answers an UnsubscribeConfirmation 200 without visiting SubscribeURL', async () => {
    const confirmationsBefore = sns.confirmations.length;
    await ok(await postSns(signed(confirmation('sns-unsubscribe-confirmation'))));
    expect(sns.confirmations).toHaveLength(confirmationsBefore);
  });

  it('accepts application/json as well', async () => {
    const message = notification({
      AlarmName: 'json-delivery',
      AlarmArn: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:json-delivery',
    });
    const res = await ok(await postSns(signed(message), { contentType: 'application/json' }));
    expect(res).toMatchObject({ created: 1 });
  });

  it('fetched the signing certificate once for all those messages', () => {
    expect(sns.certificateRequests.length - certificateFetchesBefore).toBe(1);
    expect(sns.certificateRequests.at(-1)?.path).toBe('/SimpleNotificationService-test.pem');
  });

  it('when a topic allowlist is set, refuses other topics (even correctly signed) and accepts listed ones', async () => {
    const view = await putSetting('cloud-monitor', { topic_arns: [TOPIC_ARN] });
    expect(view.cloud_monitor).toEqual({ topic_arns: [TOPIC_ARN] });
    try {
      const before = (await alertsOf('cloud-monitor')).length;
      const otherTopic = { ...unrelatedAlarm(), TopicArn: 'arn:aws:sns:us-east-1:999999999999:someone-else' };
      await expectError(await postSns(signed(otherTopic)), 401, 'invalid_signature');
      const confirmationsBefore = sns.confirmations.length;
      const foreignSubscription = {
        ...confirmation('sns-subscription-confirmation'),
        TopicArn: 'arn:aws:sns:us-east-1:999999999999:someone-else',
      };
      await expectError(await postSns(signed(foreignSubscription)), 401, 'invalid_signature');
      expect(sns.confirmations.length).toBe(confirmationsBefore);
      expect(await alertsOf('cloud-monitor')).toHaveLength(before);
      expect(await ok(await postSns(signed(unrelatedAlarm())))).toMatchObject({ received: 1 });
      const invalid = await api('PUT', '/api/v1/settings/integrations/cloud-monitor', {
        token: admin.token,
        body: { topic_arns: ['not-an-arn'] },
      });
      expect(invalid.status).toBe(400);
    } finally {
      expect((await putSetting('cloud-monitor', { topic_arns: null })).cloud_monitor).toEqual({
        topic_arns: null,
      });
    }
  });

  describe('refuses forged messages with 401 invalid_signature, storing nothing', () => {
    const forged = () =>
      notification({
        AlarmName: 'forged',
        AlarmArn: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:forged',
      });
    let before: number;

    beforeAll(async () => {
      before = (await alertsOf('cloud-monitor')).length;
    });

    async function refused(envelope: JsonBody) {
      await expectError(await postSns(envelope), 401, 'invalid_signature');
      expect(await alertsOf('cloud-monitor')).toHaveLength(before);
    }

    it('Message changed after signing', async () => {
      const message = signed(forged());
      await refused({ ...message, Message: message.Message.replace('"ALARM"', '"OK"') });
      await refused({ ...message, Message: `${message.Message} ` });
    });

    it('another signed field changed (Timestamp, TopicArn, a Subject added)', async () => {
      const message = signed(forged());
      await refused({ ...message, Timestamp: '2026-05-04T11:02:18.623Z' });
      await refused({ ...message, TopicArn: 'arn:aws:sns:us-east-1:123456789012:other-topic' });
      // A Subject the signer never saw.
      const withoutSubject = forged();
      delete withoutSubject.Subject;
      await refused({ ...signed(withoutSubject), Subject: 'ALARM: "forged"' });
    });

    it('UnsubscribeConfirmation with a changed Token (Token is signed for both confirmation types)', async () => {
      const message = signed(confirmation('sns-unsubscribe-confirmation'));
      await expectError(
        await postSns({ ...message, Token: randomBytes(40).toString('hex') }),
        401,
        'invalid_signature',
      );
    });

    it('a signature from another key, pointing at the trusted certificate', async () => {
      await refused({ ...stranger.sign(forged()), SigningCertURL: sns.certificateUrl });
    });

    it('the SignatureVersion switched after signing', async () => {
      await refused({ ...signed(forged(), '2'), SignatureVersion: '1' });
      await refused({ ...signed(forged(), '1'), SignatureVersion: '2' });
    });

    it('a signature that is not base64 of a signature at all', async () => {
      await refused({ ...signed(forged()), Signature: 'bm90IGEgc2lnbmF0dXJl' });
      await refused({ ...signed(forged()), Signature: '<base64 RSA-SHA256 signature>' });
    });

    it('a SigningCertURL outside SNS_CERT_URL_PATTERN, which is never fetched', async () => {
      const port = new URL(sns.origin).port;
      const fetchesBefore = sns.certificateRequests.length;
      // Validly signed by the stranger and pointing at the stranger's own certificate.
      await refused(stranger.sign(forged()));
      await refused({
        ...stranger.sign(forged()),
        SigningCertURL: `http://127.0.0.2:${port}/SimpleNotificationService-test.pem`,
      });
      await refused({
        ...signed(forged()),
        SigningCertURL: 'https://sns.evil.example/SimpleNotificationService-test.pem',
      });
      await refused({
        ...signed(forged()),
        SigningCertURL: `${sns.origin}/SimpleNotificationService-test.pem?x=1`,
      });
      await refused({ ...signed(forged()), SigningCertURL: `${sns.origin}/not-a-certificate.txt` });
      expect(stranger.certificateRequests).toEqual([]);
      expect(sns.certificateRequests).toHaveLength(fetchesBefore);
    });
  });

  it('does not visit a validly signed SubscribeURL outside the pattern', async () => {
    const message = confirmation('sns-subscription-confirmation');
    const confirmationsBefore = sns.confirmations.length;
    const res = await postSns(
      signed({ ...message, SubscribeURL: stranger.subscribeUrl(TOPIC_ARN, message.Token) }),
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(sns.confirmations).toHaveLength(confirmationsBefore);
    expect(stranger.confirmations).toEqual([]);
  });

  it('answers 400 to a body that is not an SNS message', async () => {
    await expectError(
      await post(app, SNS, { hello: 'world' }, { 'content-type': SNS_CONTENT_TYPE }),
      400,
      'validation_failed',
    );
    await expectError(
      await post(app, SNS, fixture('alertmanager-firing'), { 'content-type': SNS_CONTENT_TYPE }),
      400,
      'validation_failed',
    );
    const unknownType = { ...signed(unrelatedAlarm()), Type: 'Notice' };
    await expectError(await postSns(unknownType), 400, 'validation_failed');
  });
});

// ================================================================================================

describe('all three webhooks', () => {
  const oversized = (payload: JsonBody) => JSON.stringify({ ...payload, padding: 'x'.repeat(MiB) });

  it('answer 413 to bodies over 1 MiB and store nothing', async () => {
    const amBefore = (await alertsOf('metrics-alertmanager')).length;
    const grafanaBefore = (await alertsOf('dashboard-alerting')).length;
    const snsBefore = (await alertsOf('cloud-monitor')).length;
    await expectError(
      await postAlertmanager(oversized(variant('alertmanager-firing', 'huge'))),
      413,
      'payload_too_large',
    );
    await expectError(
      await postGrafana(oversized(variant('grafana-firing', 'huge'))),
      413,
      'payload_too_large',
    );
    const message = signed(
      notification({ AlarmName: 'huge', AlarmArn: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:huge' }),
    );
    await expectError(
      await post(app, SNS, oversized(message), { 'content-type': SNS_CONTENT_TYPE }),
      413,
      'payload_too_large',
    );
    expect(await alertsOf('metrics-alertmanager')).toHaveLength(amBefore);
    expect(await alertsOf('dashboard-alerting')).toHaveLength(grafanaBefore);
    expect(await alertsOf('cloud-monitor')).toHaveLength(snsBefore);
  });

  it('accept bodies above the API limit of 256 KiB but within 1 MiB', async () => {
    const padded = (payload: JsonBody) => JSON.stringify({ ...payload, padding: 'x'.repeat(600 * 1024) });
    expect(await ok(await postAlertmanager(padded(variant('alertmanager-firing', 'big'))))).toMatchObject({
      created: 2,
    });
    expect(await ok(await postGrafana(padded(variant('grafana-firing', 'big'))))).toMatchObject({
      created: 1,
    });
    // Unsigned envelope fields (like MessageAttributes) may be large too.
    const message = signed(
      notification({ AlarmName: 'big', AlarmArn: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:big' }),
    );
    const res = await postSns({
      ...message,
      MessageAttributes: { pad: { Type: 'String', Value: 'x'.repeat(600 * 1024) } },
    });
    expect(await ok(res)).toMatchObject({ created: 1 });
  });

  it('answer 400 invalid_json to malformed JSON', async () => {
    for (const body of ['{"alerts": [', 'not json', '']) {
      await expectError(await postAlertmanager(body), 400, 'invalid_json');
      await expectError(await postGrafana(body), 400, 'invalid_json');
      await expectError(
        await post(app, SNS, body, { 'content-type': SNS_CONTENT_TYPE }),
        400,
        'invalid_json',
      );
    }
  });

  it('answer 415 to a content type they do not take (the SNS route takes text/plain)', async () => {
    const am = JSON.stringify(fixture('alertmanager-firing'));
    const grafana = JSON.stringify(fixture('grafana-firing'));
    for (const type of ['text/plain; charset=UTF-8', 'application/x-www-form-urlencoded', 'text/xml']) {
      await expectError(await postAlertmanager(am, { 'content-type': type }), 415, 'unsupported_media_type');
      await expectError(await postGrafana(grafana, { 'content-type': type }), 415, 'unsupported_media_type');
    }
    const message = JSON.stringify(signed(fixture('sns-notification-alarm')));
    for (const type of [
      'application/x-www-form-urlencoded',
      'text/html',
      'multipart/form-data; boundary=x',
    ]) {
      await expectError(
        await post(app, SNS, message, { 'content-type': type }),
        415,
        'unsupported_media_type',
      );
    }
  });

  describe('with RATE_LIMIT_REQUESTS_PER_MINUTE=2', () => {
    let limited: Awaited<ReturnType<typeof startRuntime>>;

    beforeAll(async () => {
      limited = await startRuntime({ RATE_LIMIT_REQUESTS_PER_MINUTE: '2' });
    });
    afterAll(() => limited?.rt.cleanup());

    it('are never answered 429, while the API is', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        statuses.push((await postAlertmanager(fixture('alertmanager-firing'), {}, limited.server)).status);
        statuses.push((await postGrafana(fixture('grafana-firing'), {}, limited.server)).status);
        const message = signed(fixture(i % 2 ? 'sns-notification-ok' : 'sns-notification-alarm'));
        statuses.push((await postSns(message, { target: limited.server })).status);
      }
      // Refused ones (bad JSON, wrong signature) are not rate limited either.
      statuses.push((await postAlertmanager('{', {}, limited.server)).status);
      statuses.push(
        (await postSns({ ...signed(unrelatedAlarm()), Message: '{}' }, { target: limited.server })).status,
      );
      expect(statuses).toEqual([...Array(18).fill(200), 400, 401]);

      // The limit is live: the API proper answers 429 after two requests.
      const member = await createTestUser(limited.rt, 'member');
      const apiStatuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        apiStatuses.push(
          (
            await limited.server.request('/api/v1/alerts', {
              headers: { authorization: `Bearer ${member.token}` },
            })
          ).status,
        );
      }
      expect(apiStatuses).toEqual([200, 200, 429]);
    });
  });
});
