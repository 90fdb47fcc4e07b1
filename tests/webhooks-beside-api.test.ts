// The alert webhooks served beside the API on one server (the embedded default): the API's rate limit
// and body limit must not reach them, and the API's settings routes validate what the webhooks use.
import { randomUUID } from 'node:crypto';
import { loadFixture } from '@firebreak/domain/test-fixtures';
import { createTestUser } from '@firebreak/runtime/testing';
import { bodyOf, type FakeSns, type JsonBody, startFakeSns } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server-app';

const fixture = (name: string): JsonBody => loadFixture(name);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let sns: FakeSns;
let s: TestServer;
beforeAll(async () => {
  sns = await startFakeSns();
  s = await startTestServer({
    SNS_CERT_URL_PATTERN: `^${escapeRegExp(sns.origin)}/`,
    RATE_LIMIT_REQUESTS_PER_MINUTE: '2',
  });
});
afterAll(async () => {
  await s?.runtime.cleanup();
  await sns?.close();
});

const send = async (path: string, body: string | object, contentType = 'application/json') =>
  (
    await s.api('POST', path, {
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': contentType },
    })
  ).status;
const sendSns = (envelope: JsonBody) =>
  send('/api/v1/webhooks/cloud-monitor', JSON.stringify(envelope), 'text/plain; charset=UTF-8');
/** A CloudWatch notification SNS has not sent before. */
const fresh = (name: string): JsonBody => ({ ...fixture(name), MessageId: randomUUID() });

describe('with RATE_LIMIT_REQUESTS_PER_MINUTE=2', () => {
  it('the webhooks need no token and are never answered 429, while the API is', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(await send('/api/v1/webhooks/metrics-alertmanager', fixture('alertmanager-firing')));
      statuses.push(await send('/api/v1/webhooks/dashboard-alerting', fixture('grafana-firing')));
      statuses.push(await sendSns(sns.sign(fresh(i % 2 ? 'sns-notification-ok' : 'sns-notification-alarm'))));
      statuses.push(await send('/api/v1/webhooks/generic', { alerts: [{ title: `t${i}` }] }));
    }
    // Refused ones (bad JSON, wrong signature) are not rate limited either.
    statuses.push(await send('/api/v1/webhooks/metrics-alertmanager', '{'));
    statuses.push(await sendSns({ ...sns.sign(fresh('sns-notification-alarm')), Message: '{}' }));
    expect(statuses).toEqual([...Array(24).fill(200), 400, 401]);

    // The limit is live: the API proper answers 429 after two requests.
    const member = await createTestUser(s.runtime, 'member');
    const apiStatuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      apiStatuses.push((await s.api('GET', '/api/v1/alerts', { token: member.token })).status);
    }
    expect(apiStatuses).toEqual([200, 200, 429]);
  });
});

describe('the bodies the API refuses', () => {
  it('a webhook takes bodies above the API limit of 256 KiB, within its own 1 MiB', async () => {
    const payload = { ...fixture('alertmanager-firing'), padding: 'x'.repeat(600 * 1024) };
    expect(await send('/api/v1/webhooks/metrics-alertmanager', payload)).toBe(200);
  });
});

describe('PUT /api/v1/settings/integrations/cloud-monitor', () => {
  it('refuses a topic that is not an SNS topic ARN', async () => {
    const res = await s.api('PUT', '/api/v1/settings/integrations/cloud-monitor', {
      token: s.admin.token,
      body: { topic_arns: ['not-an-arn'] },
    });
    expect(res.status).toBe(400);
    expect((await bodyOf(res)).error.code).toBe('validation_failed');
  });
});
