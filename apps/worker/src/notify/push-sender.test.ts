// The Web Push sender against the fake push service (docs/paging-twilio-push.md#web-push): the fake
// checks the VAPID JWT and decrypts the body with the subscription's private key, so a message it
// records is one a browser could have read.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FakePushService, startFakePushService } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webPush from 'web-push';
import { type PushConfig, type PushPayload, type ResolveHost, sendPush } from './push-sender';

let fake: FakePushService;
let cfg: PushConfig;

beforeAll(async () => {
  fake = await startFakePushService();
  const keys = webPush.generateVAPIDKeys();
  cfg = { publicKey: keys.publicKey, privateKey: keys.privateKey, subject: 'mailto:oncall@example.test' };
});
afterAll(() => fake.close());

const payload: PushPayload = {
  title: 'INC-12 critical',
  body: 'Checkout API is down',
  url: 'https://firebreak.example.test/incidents/0b7c',
  ack_url: 'https://firebreak.example.test/api/v1/paging/ack/tok123',
  tag: 'incident-0b7c',
};

describe('sendPush', () => {
  it('delivers an encrypted, VAPID-signed message the subscription can decrypt', async () => {
    const subscription = fake.createSubscription({ applicationServerKey: cfg.publicKey });
    const outcome = await sendPush(cfg, subscription, payload);
    expect(outcome).toEqual({ ok: true, providerId: expect.stringContaining(`${fake.origin}/message/`) });
    const [message] = fake.messagesTo(subscription.endpoint);
    expect(JSON.parse(message!.payload)).toEqual(payload);
    expect(message).toMatchObject({ ttl: 3600, urgency: 'high', subject: 'mailto:oncall@example.test' });
  });

  it('cuts a long body so the message stays within what a push service takes', async () => {
    const subscription = fake.createSubscription();
    const outcome = await sendPush(cfg, subscription, { ...payload, body: 'x'.repeat(10_000) });
    expect(outcome.ok).toBe(true);
    expect(JSON.parse(fake.messagesTo(subscription.endpoint)[0]!.payload).body).toHaveLength(1000);
  });

  it('reports an expired subscription (410) as gone, not retryable', async () => {
    const subscription = fake.createSubscription();
    fake.expire(subscription.endpoint);
    const outcome = await sendPush(cfg, subscription, payload);
    expect(outcome).toMatchObject({
      ok: false,
      retryable: false,
      gone: true,
      error: expect.stringContaining('410'),
    });
  });

  it('reports an unknown subscription (404) as gone', async () => {
    const subscription = fake.createSubscription();
    const outcome = await sendPush(
      cfg,
      { ...subscription, endpoint: `${fake.origin}/push/never-made` },
      payload,
    );
    expect(outcome).toMatchObject({ ok: false, gone: true });
  });

  it('keeps the status of a refusal and never the body, which an endpoint could fill with anything', async () => {
    // An endpoint the member chose, answering with what an internal page would say.
    const server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('internal-admin-secret: hunter2');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const subscription = fake.createSubscription();
      const outcome = await sendPush(
        cfg,
        { ...subscription, endpoint: `http://127.0.0.1:${port}/push/abc` },
        payload,
      );
      expect(outcome).toEqual({ ok: false, retryable: false, gone: true, error: 'push service 404' });
    } finally {
      server.close();
    }
  });

  it('refuses, without connecting, an endpoint whose name resolves to a private or metadata address', async () => {
    const subscription = fake.createSubscription();
    const asked: string[] = [];
    const resolver =
      (addresses: string[]): ResolveHost =>
      async (hostname) => {
        asked.push(hostname);
        return addresses;
      };
    for (const addresses of [['169.254.169.254'], ['93.184.215.14', '10.1.2.3'], ['fd00:ec2::254']]) {
      const outcome = await sendPush(
        cfg,
        { ...subscription, endpoint: 'https://push.attacker.example/abc' },
        payload,
        resolver(addresses),
      );
      expect(outcome, addresses.join()).toEqual({
        ok: false,
        retryable: false,
        gone: true,
        error: 'push endpoint refused: not a public address',
      });
    }
    expect(asked).toEqual(Array(3).fill('push.attacker.example'));
    // An address stored before the API refused them is refused too, with nothing to resolve.
    const literal = await sendPush(
      cfg,
      { ...subscription, endpoint: 'https://169.254.169.254/latest' },
      payload,
      resolver([]),
    );
    expect(literal).toMatchObject({ ok: false, gone: true });
    expect(asked).toHaveLength(3);
    // The tests' fake at 127.0.0.1 is the loopback allowance: no name to resolve, and it is sent.
    const sent = await sendPush(cfg, subscription, payload, resolver(['10.0.0.1']));
    expect(sent).toMatchObject({ ok: true });
    expect(asked).toHaveLength(3);
  });

  it("reports 429 as retryable with the answer's Retry-After, and 5xx as retryable", async () => {
    const subscription = fake.createSubscription();
    fake.failNext(429, { retryAfter: '30' });
    expect(await sendPush(cfg, subscription, payload)).toMatchObject({
      ok: false,
      retryable: true,
      retryAfterMs: 30_000,
    });
    fake.failNext(502);
    expect(await sendPush(cfg, subscription, payload)).toMatchObject({ ok: false, retryable: true });
    expect(await sendPush(cfg, subscription, payload)).toMatchObject({ ok: true });
  });

  it('is refused (403, not retryable) with a VAPID key other than the one the browser subscribed with', async () => {
    const subscription = fake.createSubscription({
      applicationServerKey: webPush.generateVAPIDKeys().publicKey,
    });
    const outcome = await sendPush(cfg, subscription, payload);
    expect(outcome).toMatchObject({ ok: false, retryable: false, error: expect.stringContaining('403') });
    expect(outcome).not.toHaveProperty('gone');
    expect(fake.messagesTo(subscription.endpoint)).toEqual([]);
  });

  it('reports a subscription with broken keys as not retryable, without sending', async () => {
    const subscription = fake.createSubscription();
    const broken = { ...subscription, keys: { ...subscription.keys, p256dh: 'not-a-key' } };
    const outcome = await sendPush(cfg, broken, payload);
    expect(outcome).toMatchObject({
      ok: false,
      retryable: false,
      error: expect.stringContaining('unusable'),
    });
    expect(fake.refusals.filter((r) => r.endpoint === subscription.endpoint)).toEqual([]);
  });
});
