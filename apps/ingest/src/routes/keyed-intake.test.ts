// Intake by key (docs/integrations/keyed-intake.md), against the ingest app: each type answers as its
// fixed path does, without the fixed path's secret; unknown, disabled and deleted keys look alike; a
// rotated key keeps deduplicating; the integration's labels, policy and id reach its alerts; the fixed
// paths can be turned off. SNS is a local fake with a throw-away certificate that signs on its own.
import { randomBytes, randomUUID } from 'node:crypto';
import { CreateIntegrationInput, CreateRoutingRuleInput, type Integration } from '@firebreak/schema';
import {
  createEscalationPolicy,
  createIntegration,
  createRoutingRule,
  deleteIntegration,
  listAlerts,
  rotateIntegrationKey,
  setFixedWebhooksEnabled,
  updateIntegration,
} from '@firebreak/services';
import { bodyOf, type FakeSns, type JsonBody, startFakeSns } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AM,
  expectError,
  fixture,
  GENERIC,
  GRAFANA,
  type IngestTestApp,
  notification,
  ok,
  post,
  postSns,
  SNS,
  startIngestTestApp,
  TOPIC_ARN,
  trustSns,
  variant,
} from './ingest-test-app';
import { oneIncidentPerAlert } from './one-incident-per-alert';

let sns: FakeSns;
let stranger: FakeSns;
let t: IngestTestApp;
beforeAll(async () => {
  sns = await startFakeSns();
  stranger = await startFakeSns(); // another key and certificate: an attacker's own "SNS"
  t = await startIngestTestApp(trustSns(sns));
  await oneIncidentPerAlert(t.runtime.ctx);
});
afterAll(async () => {
  await t?.runtime.cleanup();
  await sns?.close();
  await stranger?.close();
});

const audience = { revealKey: true, baseUrl: 'https://firebreak.example.com' };
async function integration(body: Record<string, unknown>): Promise<Integration> {
  const input = CreateIntegrationInput.parse({ name: `integration ${randomUUID()}`, ...body });
  return createIntegration(t.runtime.ctx, input, audience);
}
const intake = (key: string) => `/api/v1/intake/${key}`;
/** An answer without what differs between any two requests: its request id. */
const withoutRequestId = (body: JsonBody) => ({ ...body, error: { ...body.error, request_id: undefined } });
const allAlerts = async (): Promise<JsonBody[]> =>
  JSON.parse(JSON.stringify((await listAlerts(t.runtime.ctx, { limit: 1000 })).alerts));
const alertById = async (id: string) => (await allAlerts()).find((alert) => alert.id === id);

let seq = 0;
const uid = (name: string) => `${name}-${++seq}`;

describe('generic, Alertmanager and Grafana by key', () => {
  it('generic: stored under the integration, deduplicated per integration, answered as the fixed path', async () => {
    const generic = await integration({ type: 'generic' });
    const body = { alerts: [{ title: 'Disk almost full', external_id: uid('disk'), severity: 'critical' }] };
    const fixed = await ok(await post(t.app, GENERIC, body));
    const keyed = await ok(await post(t.app, intake(generic.key), body));
    // The same delivery to both: an alert each (dedup is per integration), answered alike.
    const shape = (answer: JsonBody) => ({ ...answer, alerts: answer.alerts.map((a: JsonBody) => a.status) });
    expect(shape(keyed)).toEqual(shape(fixed));
    expect(keyed).toMatchObject({ received: 1, created: 1, incidents_created: 1 });
    expect(keyed.alerts[0].id).not.toBe(fixed.alerts[0].id);
    expect(await alertById(keyed.alerts[0].id)).toMatchObject({ integration_id: generic.id, source: null });
    expect(await alertById(fixed.alerts[0].id)).toMatchObject({ integration_id: null });

    const again = await ok(await post(t.app, intake(generic.key), body));
    expect(again).toMatchObject({ created: 0, updated: 1, incidents_created: 0 });
    expect(again.alerts[0].id).toBe(keyed.alerts[0].id);
  });

  it('generic: the fixed path’s 415, invalid_json and validation_failed, word for word', async () => {
    const generic = await integration({ type: 'generic' });
    const bad: Array<[string | object, Record<string, string>]> = [
      ['{"alerts": []}', { 'content-type': 'text/plain' }],
      ['{"alerts": [', {}],
      [{ alerts: [{ title: '', severity: 'loud' }] }, {}],
    ];
    for (const [body, headers] of bad) {
      const fixed = await bodyOf(await post(t.app, GENERIC, body, headers));
      const res = await post(t.app, intake(generic.key), body, headers);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(withoutRequestId(await bodyOf(res))).toEqual(withoutRequestId(fixed));
    }
    expect(
      (await allAlerts()).filter((alert) => alert.integration_id === generic.id),
      'nothing of a refused body is stored',
    ).toEqual([]);
  });

  it('Alertmanager: no bearer token needed at the keyed URL, even while the fixed path requires one', async () => {
    const alertmanager = await integration({ type: 'alertmanager' });
    await t.putSetting('metrics-alertmanager', { bearer_token: `am-${randomBytes(16).toString('hex')}` });
    try {
      await expectError(
        await post(t.app, AM, variant('alertmanager-firing', 'keyed-am')),
        401,
        'invalid_signature',
      );
      const res = await ok(
        await post(t.app, intake(alertmanager.key), variant('alertmanager-firing', 'keyed-am')),
      );
      expect(res).toMatchObject({ received: 2, created: 2, incidents_created: 2 });
      expect(await alertById(res.alerts[0].id)).toMatchObject({
        integration_id: alertmanager.id,
        source: 'metrics-alertmanager',
      });
      const resolved = await ok(
        await post(t.app, intake(alertmanager.key), variant('alertmanager-resolved', 'keyed-am')),
      );
      expect(resolved).toMatchObject({ created: 0, resolved: 2 });
    } finally {
      await t.putSetting('metrics-alertmanager', { bearer_token: null });
    }
  });

  it('Grafana: no HMAC needed at the keyed URL; the fixed path’s answer otherwise', async () => {
    const grafana = await integration({ type: 'grafana' });
    await t.putSetting('dashboard-alerting', { hmac_secret: `grafana-${randomBytes(16).toString('hex')}` });
    try {
      await expectError(await post(t.app, GRAFANA, fixture('grafana-firing')), 401, 'invalid_signature');
      const res = await ok(await post(t.app, intake(grafana.key), fixture('grafana-firing')));
      expect(res).toMatchObject({ received: 1, created: 1, incidents_created: 1 });
      expect(await alertById(res.alerts[0].id)).toMatchObject({
        integration_id: grafana.id,
        source: 'dashboard-alerting',
        title: 'Disk on db-1 is 92% full',
      });
    } finally {
      await t.putSetting('dashboard-alerting', { hmac_secret: null });
    }
    // A body that is not Grafana's is refused as the fixed Grafana path refuses it.
    const fixedWrong = await bodyOf(await post(t.app, GRAFANA, { alerts: 'not a list' }));
    const wrong = await post(t.app, intake(grafana.key), { alerts: 'not a list' });
    expect(withoutRequestId(await expectError(wrong, 400, 'validation_failed'))).toEqual(
      withoutRequestId(fixedWrong),
    );
  });
});

describe('CloudWatch through SNS by key', () => {
  it('confirms the subscription, records alarms under the integration, checks signature and topic', async () => {
    const cloudwatch = await integration({ type: 'cloudwatch' });
    const send = (envelope: JsonBody) =>
      post(t.app, intake(cloudwatch.key), JSON.stringify(envelope, null, 2), {
        'content-type': 'text/plain; charset=UTF-8',
      });

    const token = randomBytes(40).toString('hex');
    const confirmation = {
      ...fixture('sns-subscription-confirmation'),
      MessageId: randomUUID(),
      Token: token,
      SubscribeURL: sns.subscribeUrl(TOPIC_ARN, token),
    };
    const confirmationsBefore = sns.confirmations.length;
    expect(await ok(await send(sns.sign(confirmation, '2')))).toEqual({
      confirmed: true,
      topic_arn: TOPIC_ARN,
    });
    expect(sns.confirmations.slice(confirmationsBefore)).toEqual([
      expect.objectContaining({ topicArn: TOPIC_ARN, token }),
    ]);

    const alarm = notification({
      AlarmName: 'keyed-5xx',
      AlarmArn: 'arn:aws:cloudwatch:us-east-1:1:alarm:keyed',
    });
    const res = await ok(await send(sns.sign(alarm, '2')));
    expect(res).toMatchObject({ received: 1, created: 1, incidents_created: 1 });
    expect(await alertById(res.alerts[0].id)).toMatchObject({
      integration_id: cloudwatch.id,
      source: 'cloud-monitor',
      title: 'keyed-5xx',
    });

    // The key says where a message goes, not where it comes from: another "SNS" is refused.
    await expectError(
      await send(stranger.sign(notification({ AlarmName: 'forged' }), '2')),
      401,
      'invalid_signature',
    );
    // And so is a topic outside the allowlist, as at the fixed path.
    await t.setSnsTopics(['arn:aws:sns:us-east-1:123456789012:another-topic']);
    try {
      const fixed = await postSns(t.app, sns.sign(notification({ AlarmName: 'other-topic' }), '2'));
      const keyed = await send(sns.sign(notification({ AlarmName: 'other-topic' }), '2'));
      expect(withoutRequestId(await expectError(keyed, 401, 'invalid_signature'))).toEqual(
        withoutRequestId(await bodyOf(fixed)),
      );
    } finally {
      await t.setSnsTopics(null);
    }
    expect(SNS).toBe('/api/v1/webhooks/cloud-monitor');
  });
});

describe('keys that name nothing', () => {
  it('unknown, disabled and deleted keys, and PagerDuty and Opsgenie keys (POST or GET), answer the same 404', async () => {
    const disabled = await integration({ type: 'generic' });
    await updateIntegration(t.runtime.ctx, disabled.id, { enabled: false }, audience);
    const deleted = await integration({ type: 'generic' });
    await deleteIntegration(t.runtime.ctx, deleted.id);
    const pagerduty = await integration({ type: 'pagerduty' });
    const opsgenie = await integration({ type: 'opsgenie' });
    const body = { alerts: [{ title: 'Nobody hears this', external_id: uid('lost') }] };
    const keys = [
      randomBytes(32).toString('base64url'),
      'short',
      disabled.key,
      deleted.key,
      pagerduty.key,
      opsgenie.key,
    ];
    const answers = [];
    for (const key of keys)
      answers.push(
        withoutRequestId(await expectError(await post(t.app, intake(key), body), 404, 'not_found')),
      );
    // A GET on them too: this URL takes nothing from PagerDuty and Opsgenie senders, whatever the method.
    for (const key of keys)
      answers.push(withoutRequestId(await expectError(await t.app.request(intake(key)), 404, 'not_found')));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(JSON.stringify(answers)).not.toContain(disabled.key);
    // A disabled heartbeat is not pinged either.
    const heartbeat = await integration({ type: 'heartbeat', interval_seconds: 60 });
    await updateIntegration(t.runtime.ctx, heartbeat.id, { enabled: false }, audience);
    const res = await t.app.request(intake(heartbeat.key));
    expect(withoutRequestId(await expectError(res, 404, 'not_found'))).toEqual(answers[0]);
  });

  it('never writes a key to the logs, not even the request line', async () => {
    const generic = await integration({ type: 'generic' });
    await ok(
      await post(t.app, intake(generic.key), { alerts: [{ title: 'Logged?', external_id: uid('log') }] }),
    );
    await post(t.app, intake(`${generic.key}x`), {});
    const logged = JSON.stringify(t.runtime.logs.lines);
    expect(logged).toContain(`/api/v1/intake/${generic.key.slice(0, 4)}…`);
    expect(logged).not.toContain(generic.key);
  });

  it('refuses a body over 1 MiB with 413, as the fixed paths do', async () => {
    const generic = await integration({ type: 'generic' });
    const huge = JSON.stringify({ alerts: [{ title: 'x'.repeat(1024 * 1024 + 10) }] });
    await expectError(await post(t.app, intake(generic.key), huge), 413, 'payload_too_large');
  });
});

describe('heartbeats by key', () => {
  it('a GET, or a POST with any body or none, is a ping; a GET on a type that takes POST is 405', async () => {
    const heartbeat = await integration({ type: 'heartbeat', interval_seconds: 300 });
    const ping = expect.objectContaining({
      status: 'up',
      last_ping_at: expect.any(String),
      next_due_at: expect.any(String),
    });
    expect(await ok(await t.app.request(intake(heartbeat.key)))).toEqual(ping);
    expect(await ok(await t.app.request(intake(heartbeat.key), { method: 'POST' }))).toEqual(ping);
    expect(
      await ok(
        await t.app.request(intake(heartbeat.key), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'from=cron',
        }),
      ),
    ).toEqual(ping);
    expect(await ok(await post(t.app, intake(heartbeat.key), 'not json at all'))).toEqual(ping);

    for (const type of ['generic', 'alertmanager', 'grafana', 'cloudwatch']) {
      const other = await integration({ type });
      const res = await t.app.request(intake(other.key));
      await expectError(res, 405, 'method_not_allowed');
      expect(res.headers.get('allow')).toBe('POST');
    }
  });
});

describe('what the integration adds to its alerts', () => {
  it('a rotated key: the old one 404s at once, alerts before and after deduplicate into one', async () => {
    const generic = await integration({ type: 'generic' });
    const externalId = uid('rotating');
    const firing = { alerts: [{ title: 'Queue stuck', external_id: externalId, severity: 'critical' }] };
    const first = await ok(await post(t.app, intake(generic.key), firing));
    const rotated = await rotateIntegrationKey(t.runtime.ctx, generic.id, audience);
    expect(rotated.key).not.toBe(generic.key);
    await expectError(await post(t.app, intake(generic.key), firing), 404, 'not_found');
    const resolved = await ok(
      await post(t.app, intake(rotated.key), { alerts: [{ ...firing.alerts[0], status: 'resolved' }] }),
    );
    expect(resolved).toMatchObject({ created: 0, resolved: 1 });
    expect(resolved.alerts[0].id).toBe(first.alerts[0].id);
    expect(resolved.alerts[0].incident_id).toBe(first.alerts[0].incident_id);
  });

  it('labels win over the sender’s; the integration’s policy pages when the rule names none', async () => {
    const policy = await createEscalationPolicy(t.runtime.ctx, {
      name: `Keyed ${randomUUID()}`,
      description: '',
      enabled: true,
      repeat: 0,
      tiers: [],
    });
    const generic = await integration({
      type: 'generic',
      labels: { team: 'payments', env: 'prod' },
      escalation_policy_id: policy.id,
    });
    const res = await ok(
      await post(t.app, intake(generic.key), {
        alerts: [
          {
            title: 'Card auth errors',
            external_id: uid('labels'),
            severity: 'critical',
            labels: { team: 'web', host: 'a' },
          },
        ],
      }),
    );
    expect(await alertById(res.alerts[0].id)).toMatchObject({
      labels: { team: 'payments', env: 'prod', host: 'a' },
    });
    // The fresh installation's rule (critical or warning → incident) names no policy.
    expect(await t.incident(res.alerts[0].incident_id)).toMatchObject({ escalation_policy_id: policy.id });
  });

  it('a routing rule can match integration_id; the same alert at the fixed path does not match', async () => {
    const quiet = await integration({ type: 'generic' });
    await createRoutingRule(
      t.runtime.ctx,
      CreateRoutingRuleInput.parse({
        name: 'Quiet integration',
        priority: 1,
        match_criteria: { integration_id: quiet.id },
        actions: { suppress: true },
      }),
    );
    const body = { alerts: [{ title: 'Noisy', external_id: uid('routed'), severity: 'critical' }] };
    const keyed = await ok(await post(t.app, intake(quiet.key), body));
    expect(keyed).toMatchObject({ created: 1, suppressed: 1, incidents_created: 0 });
    expect(await alertById(keyed.alerts[0].id)).toMatchObject({ suppressed_by: 'routing_rule' });
    const fixed = await ok(await post(t.app, GENERIC, body));
    expect(fixed).toMatchObject({ created: 1, suppressed: 0, incidents_created: 1 });
  });
});

describe('fixed_webhooks_enabled', () => {
  it('false: the four fixed paths answer 404 and keyed intake still records; true opens them again', async () => {
    const generic = await integration({ type: 'generic' });
    const body = () => ({ alerts: [{ title: 'Fixed off', external_id: uid('fixed-off') }] });
    await setFixedWebhooksEnabled(t.runtime.ctx, false);
    try {
      const before = (await allAlerts()).length;
      for (const path of [GENERIC, AM, GRAFANA, SNS])
        await expectError(await post(t.app, path, body()), 404, 'not_found');
      expect(await allAlerts()).toHaveLength(before);
      expect(await ok(await post(t.app, intake(generic.key), body()))).toMatchObject({ created: 1 });
      // The schema of the generic body is documentation, not intake: still served.
      expect((await t.app.request(`${GENERIC}/schema`)).status).toBe(200);
    } finally {
      await setFixedWebhooksEnabled(t.runtime.ctx, true);
    }
    expect(await ok(await post(t.app, GENERIC, body()))).toMatchObject({ created: 1 });
  });
});
