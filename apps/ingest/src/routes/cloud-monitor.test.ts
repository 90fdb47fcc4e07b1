// CloudWatch alarms through SNS over HTTP, against the ingest app: what SNS sends, what it gets back, and
// what a user then sees. SNS is a local fake with a throw-away certificate that signs on its own.
import { randomBytes, randomUUID } from 'node:crypto';
import { type FakeSns, type JsonBody, type SnsSignatureVersion, startFakeSns } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  fixture,
  type IngestTestApp,
  notification,
  ok,
  post,
  postSns,
  SNS,
  SNS_CONTENT_TYPE,
  startIngestTestApp,
  TOPIC_ARN,
  trustSns,
  unrelatedAlarm,
} from './ingest-test-app';

let sns: FakeSns;
let stranger: FakeSns;
let t: IngestTestApp;
beforeAll(async () => {
  sns = await startFakeSns();
  stranger = await startFakeSns(); // another key and certificate: an attacker's own "SNS"
  t = await startIngestTestApp(trustSns(sns));
});
afterAll(async () => {
  await t?.runtime.cleanup();
  await sns?.close();
  await stranger?.close();
});

const alertsOf = (source: string) => t.alertsOf(source);
const alertById = (source: string, id: string) => t.alertById(source, id);
const incident = (id: string) => t.incident(id);
const timelineTypes = (id: string) => t.timelineTypes(id);

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
      await ok(await postSns(t.app, signed(message, version)));
      expect(sns.confirmations.slice(confirmationsBefore)).toEqual([
        expect.objectContaining({ topicArn: TOPIC_ARN, token: message.Token }),
      ]);
      expect(await alertsOf('cloud-monitor')).toEqual([]);
    });
  }

  it('an ALARM Notification becomes a firing alert and an incident', async () => {
    alarm = await ok(await postSns(t.app, signed(fixture('sns-notification-alarm'))));
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
    const again = await ok(await postSns(t.app, signed(fixture('sns-notification-alarm'), '1')));
    expect(again).toMatchObject({ received: 1, created: 0, updated: 1, incidents_created: 0 });
    expect(again.alerts).toEqual(alarm.alerts);
  });

  it('the OK Notification resolves the alert and flags the incident', async () => {
    const res = await ok(await postSns(t.app, signed(fixture('sns-notification-ok'))));
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
    const res = await ok(await postSns(t.app, signed(message)));
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
    const res = await ok(await postSns(t.app, signed(message)));
    expect(res).toMatchObject({ created: 0, updated: 0, resolved: 0, incidents_created: 0, alerts: [] });
    expect(await alertsOf('cloud-monitor')).toHaveLength(before);
  });

  it('answers an UnsubscribeConfirmation 200 without visiting SubscribeURL', async () => {
    const confirmationsBefore = sns.confirmations.length;
    await ok(await postSns(t.app, signed(confirmation('sns-unsubscribe-confirmation'))));
    expect(sns.confirmations).toHaveLength(confirmationsBefore);
  });

  it('accepts application/json as well', async () => {
    const message = notification({
      AlarmName: 'json-delivery',
      AlarmArn: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:json-delivery',
    });
    const res = await ok(await postSns(t.app, signed(message), { contentType: 'application/json' }));
    expect(res).toMatchObject({ created: 1 });
  });

  it('fetched the signing certificate once for all those messages', () => {
    expect(sns.certificateRequests.length - certificateFetchesBefore).toBe(1);
    expect(sns.certificateRequests.at(-1)?.path).toBe('/SimpleNotificationService-test.pem');
  });

  it('when a topic allowlist is set, refuses other topics (even correctly signed) and accepts listed ones', async () => {
    const view = await t.putSetting('cloud-monitor', { topic_arns: [TOPIC_ARN] });
    expect(view.cloud_monitor).toEqual({ topic_arns: [TOPIC_ARN] });
    try {
      const before = (await alertsOf('cloud-monitor')).length;
      const otherTopic = { ...unrelatedAlarm(), TopicArn: 'arn:aws:sns:us-east-1:999999999999:someone-else' };
      await expectError(await postSns(t.app, signed(otherTopic)), 401, 'invalid_signature');
      const confirmationsBefore = sns.confirmations.length;
      const foreignSubscription = {
        ...confirmation('sns-subscription-confirmation'),
        TopicArn: 'arn:aws:sns:us-east-1:999999999999:someone-else',
      };
      await expectError(await postSns(t.app, signed(foreignSubscription)), 401, 'invalid_signature');
      expect(sns.confirmations.length).toBe(confirmationsBefore);
      expect(await alertsOf('cloud-monitor')).toHaveLength(before);
      expect(await ok(await postSns(t.app, signed(unrelatedAlarm())))).toMatchObject({ received: 1 });
    } finally {
      expect((await t.putSetting('cloud-monitor', { topic_arns: null })).cloud_monitor).toEqual({
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
      await expectError(await postSns(t.app, envelope), 401, 'invalid_signature');
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
        await postSns(t.app, { ...message, Token: randomBytes(40).toString('hex') }),
        401,
        'invalid_signature',
      );
    });

    it('a signature from another key, pointing at the trusted certificate', async () => {
      await refused({ ...stranger.sign(forged()), SigningCertURL: sns.certificateUrl });
    });

    it('a validly signed message sent more than an hour ago (a replay), and one an hour ahead', async () => {
      const hour = 60 * 60 * 1000;
      await refused(sns.sign(forged(), '2', new Date(Date.now() - hour - 60_000)));
      await refused(sns.sign(forged(), '2', new Date(Date.now() + hour + 60_000)));
      // Within the hour it is taken: SNS retries a delivery for a while with the same Timestamp.
      await ok(await postSns(t.app, sns.sign(forged(), '2', new Date(Date.now() - hour + 60_000))));
      before += 1;
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
      t.app,
      signed({ ...message, SubscribeURL: stranger.subscribeUrl(TOPIC_ARN, message.Token) }),
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(sns.confirmations).toHaveLength(confirmationsBefore);
    expect(stranger.confirmations).toEqual([]);
  });

  it('answers 400 to a body that is not an SNS message', async () => {
    await expectError(
      await post(t.app, SNS, { hello: 'world' }, { 'content-type': SNS_CONTENT_TYPE }),
      400,
      'validation_failed',
    );
    await expectError(
      await post(t.app, SNS, fixture('alertmanager-firing'), { 'content-type': SNS_CONTENT_TYPE }),
      400,
      'validation_failed',
    );
    const unknownType = { ...signed(unrelatedAlarm()), Type: 'Notice' };
    await expectError(await postSns(t.app, unknownType), 400, 'validation_failed');
  });
});
