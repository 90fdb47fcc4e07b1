// The webhook route tests' own ingest app on a fresh database: senders that post what Alertmanager,
// Grafana, SNS and the generic webhook's senders post, and what a user then sees, read through the same
// service verbs the API answers with (so these tests need no other app). Integration settings, and an
// incident a user resolves, are written the way the API's routes write them.
import { createHash, randomUUID } from 'node:crypto';
import type { Env } from '@firebreak/config';
import { outbox } from '@firebreak/db';
import { loadFixture } from '@firebreak/domain/test-fixtures';
import { oneUserPerRole, startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import {
  getIncident,
  getIncidentAlerts,
  getSettingsView,
  getTimeline,
  type IntegrationSecret,
  listAlerts,
  parseIncidentRef,
  updateIncident,
  writeIntegrationSecrets,
  writeSnsTopicAllowlist,
} from '@firebreak/services';
import { bodyOf, type FakeSns, type JsonBody } from '@firebreak/testing';
import { expect } from 'vitest';
import { createApp } from '../app';

/** A payload shape the sources really send (the parsers' fixtures). */
export const fixture = (name: string): JsonBody => loadFixture(name);

export type IngestApp = ReturnType<typeof createApp>;

export const AM = '/api/v1/webhooks/metrics-alertmanager';
export const GRAFANA = '/api/v1/webhooks/dashboard-alerting';
export const SNS = '/api/v1/webhooks/cloud-monitor';
export const GENERIC = '/api/v1/webhooks/generic';
export const SNS_CONTENT_TYPE = 'text/plain; charset=UTF-8';
export const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:incident-alarms';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The configuration that makes the ingest app trust the fake SNS's certificate URL. */
export const trustSns = (sns: FakeSns): Env => ({ SNS_CERT_URL_PATTERN: `^${escapeRegExp(sns.origin)}/` });

/** What a JSON response would carry: dates as ISO strings, no undefined fields. */
const asJson = (value: unknown): JsonBody => JSON.parse(JSON.stringify(value));

export interface IngestTestApp {
  runtime: TestRuntime;
  app: IngestApp;
  admin: TestUser;
  /** `GET /api/v1/alerts?source=…&limit=1000`'s alerts. */
  alertsOf(source: string): Promise<JsonBody[]>;
  alertById(source: string, id: string): Promise<JsonBody>;
  /** `GET /api/v1/incidents/:id`. */
  incident(id: string): Promise<JsonBody>;
  /** `GET /api/v1/incidents/:id/timeline`'s entries, oldest first. */
  timeline(id: string): Promise<JsonBody[]>;
  /** The types of `GET /api/v1/incidents/:id/timeline`'s entries, oldest first. */
  timelineTypes(id: string): Promise<string[]>;
  /** `GET /api/v1/incidents/:id/alerts`'s alerts. */
  incidentAlerts(id: string): Promise<JsonBody[]>;
  /** As the admin's `PATCH /api/v1/incidents/:id` with `{ status: 'resolved' }` does. */
  resolveIncident(id: string): Promise<JsonBody>;
  /**
   * The names of the chat jobs waiting in the outbox for an incident, oldest first: what its chat
   * channel will hear once the relay runs (no relay runs in these tests).
   */
  pendingChatJobs(incidentId: string): Promise<string[]>;
  /** As `PUT /api/v1/settings/integrations/…` does; answers the settings view. */
  setSecrets(values: Partial<Record<IntegrationSecret, string | null>>): Promise<JsonBody>;
  setSnsTopics(topicArns: string[] | null): Promise<JsonBody>;
  /** What `PUT /api/v1/settings/integrations/<slug>` does with `body`; answers the settings view. */
  putSetting(settingsSlug: string, body: JsonBody): Promise<JsonBody>;
}

export async function startIngestTestApp(env: Env = {}): Promise<IngestTestApp> {
  const {
    runtime,
    app,
    users: { admin },
  } = await startTestApp(createApp, { env, users: { admin: oneUserPerRole.admin } });
  const { ctx, sql } = runtime;
  const view = async () => asJson(await getSettingsView(ctx, { chatConfigured: false, aiProvider: 'none' }));
  const alertsOf = async (source: string): Promise<JsonBody[]> =>
    asJson((await listAlerts(ctx, { source, limit: 1000 })).alerts);
  const setSecrets: IngestTestApp['setSecrets'] = async (values) => {
    await writeIntegrationSecrets(ctx, values);
    return view();
  };
  const setSnsTopics: IngestTestApp['setSnsTopics'] = async (topicArns) => {
    await writeSnsTopicAllowlist(ctx, topicArns);
    return view();
  };
  return {
    runtime,
    app,
    admin,
    alertsOf,
    alertById: async (source, id) => (await alertsOf(source)).find((alert) => alert.id === id),
    incident: async (id) => asJson(await getIncident(ctx, parseIncidentRef(id))),
    timeline: async (id) => asJson(await getTimeline(ctx, parseIncidentRef(id))),
    timelineTypes: async (id) => (await getTimeline(ctx, parseIncidentRef(id))).map((entry) => entry.type),
    incidentAlerts: async (id) => asJson(await getIncidentAlerts(ctx, parseIncidentRef(id))),
    resolveIncident: async (id) => {
      const actor = { type: 'user' as const, id: admin.id, name: oneUserPerRole.admin.name };
      return asJson(await updateIncident(ctx, actor, parseIncidentRef(id), { status: 'resolved' }));
    },
    pendingChatJobs: async (incidentId) =>
      (await outbox.listPendingOutbox(sql, 10_000))
        .filter((row) => row.ordering_key === incidentId)
        .map((row) => row.job_name),
    setSecrets,
    setSnsTopics,
    putSetting: async (settingsSlug, body) => {
      if (settingsSlug === 'metrics-alertmanager')
        return setSecrets({ alertmanagerBearerToken: body.bearer_token });
      if (settingsSlug === 'dashboard-alerting') {
        return setSecrets({
          grafanaHmacSecret: body.hmac_secret,
          grafanaTimestampHeader: body.hmac_secret === null ? null : (body.timestamp_header ?? null),
        });
      }
      if (settingsSlug === 'generic-webhook')
        return setSecrets({ genericSigningSecret: body.signing_secret });
      return setSnsTopics(body.topic_arns);
    },
  };
}

/** POSTs a body (a string as is, anything else as JSON) the way a webhook sender does. */
export function post(
  target: IngestApp,
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

export async function ok(res: Response): Promise<JsonBody> {
  const body = await bodyOf(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body;
}

/** The error envelope every route answers with. */
export async function expectError(res: Response, status: number, code: string): Promise<JsonBody> {
  const body = await bodyOf(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(body).toMatchObject({
    error: { code, message: expect.any(String), request_id: expect.any(String) },
  });
  return body;
}

export const postAlertmanager = (
  target: IngestApp,
  body: string | object,
  headers: Record<string, string> = {},
) => post(target, AM, body, { 'user-agent': 'Alertmanager/0.28.1', ...headers });
export const postGrafana = (target: IngestApp, body: string | object, headers: Record<string, string> = {}) =>
  post(target, GRAFANA, body, { 'user-agent': 'Grafana', ...headers });

/** As any sender of our own JSON shape does: `{ "alerts": [...] }`, signed or not. */
export const postGeneric = (target: IngestApp, body: string | object, headers: Record<string, string> = {}) =>
  post(target, GENERIC, body, headers);

/** As SNS delivers: `text/plain` by default, the `x-amz-sns-*` headers, a pretty-printed JSON body. */
export function postSns(target: IngestApp, envelope: JsonBody, options: { contentType?: string } = {}) {
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
  return post(target, SNS, JSON.stringify(envelope, null, 2), headers);
}

/**
 * An Alertmanager or Grafana fixture about other alert instances: fingerprints, instances and summaries
 * derived from `tag`, so the same tag names the same alerts in the firing, mixed and resolved fixtures.
 */
export function variant(name: string, tag: string): JsonBody {
  const payload = fixture(name);
  for (const alert of payload.alerts as JsonBody[]) {
    alert.fingerprint = createHash('sha256').update(`${tag}:${alert.fingerprint}`).digest('hex').slice(0, 16);
    alert.labels.instance = `${tag}-${alert.labels.instance}`;
    alert.annotations.summary = `[${tag}] ${alert.annotations.summary}`;
  }
  return payload;
}

/** A new CloudWatch alarm notification: the ALARM fixture with a fresh MessageId and alarm fields changed. */
export function notification(alarm: Record<string, unknown>): JsonBody {
  const payload = fixture('sns-notification-alarm');
  const document = { ...JSON.parse(payload.Message), ...alarm };
  return { ...payload, MessageId: randomUUID(), Message: JSON.stringify(document) };
}

/** Some other alarm, for requests that are refused before its content matters. */
export function unrelatedAlarm(): JsonBody {
  return notification({
    AlarmName: 'not-sns',
    AlarmArn: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:x',
  });
}
