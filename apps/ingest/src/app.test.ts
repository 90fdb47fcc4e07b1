// What every webhook route shares (bodies up to 1 MiB, JSON only, one error envelope), against the
// ingest app.
import { type FakeSns, type JsonBody, startFakeSns } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  fixture,
  type IngestTestApp,
  notification,
  ok,
  post,
  postAlertmanager,
  postGrafana,
  postSns,
  SNS,
  SNS_CONTENT_TYPE,
  startIngestTestApp,
  trustSns,
  variant,
} from './routes/ingest-test-app';

const MiB = 1024 * 1024;

let sns: FakeSns;
let t: IngestTestApp;
beforeAll(async () => {
  sns = await startFakeSns();
  t = await startIngestTestApp(trustSns(sns));
});
afterAll(async () => {
  await t?.runtime.cleanup();
  await sns?.close();
});

const alertsOf = (source: string) => t.alertsOf(source);
const signed = (envelope: JsonBody) => sns.sign(envelope, '2');

describe('all three webhooks', () => {
  const oversized = (payload: JsonBody) => JSON.stringify({ ...payload, padding: 'x'.repeat(MiB) });

  it('answer 413 to bodies over 1 MiB and store nothing', async () => {
    const amBefore = (await alertsOf('metrics-alertmanager')).length;
    const grafanaBefore = (await alertsOf('dashboard-alerting')).length;
    const snsBefore = (await alertsOf('cloud-monitor')).length;
    await expectError(
      await postAlertmanager(t.app, oversized(variant('alertmanager-firing', 'huge'))),
      413,
      'payload_too_large',
    );
    await expectError(
      await postGrafana(t.app, oversized(variant('grafana-firing', 'huge'))),
      413,
      'payload_too_large',
    );
    const message = signed(
      notification({ AlarmName: 'huge', AlarmArn: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:huge' }),
    );
    await expectError(
      await post(t.app, SNS, oversized(message), { 'content-type': SNS_CONTENT_TYPE }),
      413,
      'payload_too_large',
    );
    expect(await alertsOf('metrics-alertmanager')).toHaveLength(amBefore);
    expect(await alertsOf('dashboard-alerting')).toHaveLength(grafanaBefore);
    expect(await alertsOf('cloud-monitor')).toHaveLength(snsBefore);
  });

  it('accept bodies above the API limit of 256 KiB but within 1 MiB', async () => {
    const padded = (payload: JsonBody) => JSON.stringify({ ...payload, padding: 'x'.repeat(600 * 1024) });
    expect(
      await ok(await postAlertmanager(t.app, padded(variant('alertmanager-firing', 'big')))),
    ).toMatchObject({
      created: 2,
    });
    expect(await ok(await postGrafana(t.app, padded(variant('grafana-firing', 'big'))))).toMatchObject({
      created: 1,
    });
    // Unsigned envelope fields (like MessageAttributes) may be large too.
    const message = signed(
      notification({ AlarmName: 'big', AlarmArn: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:big' }),
    );
    const res = await postSns(t.app, {
      ...message,
      MessageAttributes: { pad: { Type: 'String', Value: 'x'.repeat(600 * 1024) } },
    });
    expect(await ok(res)).toMatchObject({ created: 1 });
  });

  it('answer 400 invalid_json to malformed JSON', async () => {
    for (const body of ['{"alerts": [', 'not json', '']) {
      await expectError(await postAlertmanager(t.app, body), 400, 'invalid_json');
      await expectError(await postGrafana(t.app, body), 400, 'invalid_json');
      await expectError(
        await post(t.app, SNS, body, { 'content-type': SNS_CONTENT_TYPE }),
        400,
        'invalid_json',
      );
    }
  });

  it('answer 415 to a content type they do not take (the SNS route takes text/plain)', async () => {
    const am = JSON.stringify(fixture('alertmanager-firing'));
    const grafana = JSON.stringify(fixture('grafana-firing'));
    for (const type of ['text/plain; charset=UTF-8', 'application/x-www-form-urlencoded', 'text/xml']) {
      await expectError(
        await postAlertmanager(t.app, am, { 'content-type': type }),
        415,
        'unsupported_media_type',
      );
      await expectError(
        await postGrafana(t.app, grafana, { 'content-type': type }),
        415,
        'unsupported_media_type',
      );
    }
    const message = JSON.stringify(signed(fixture('sns-notification-alarm')));
    for (const type of [
      'application/x-www-form-urlencoded',
      'text/html',
      'multipart/form-data; boundary=x',
    ]) {
      await expectError(
        await post(t.app, SNS, message, { 'content-type': type }),
        415,
        'unsupported_media_type',
      );
    }
  });
});
