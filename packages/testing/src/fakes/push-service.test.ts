// The fake push service refuses what a push service refuses (RFC 8030 TTL, RFC 8292 VAPID, RFC 8291
// encryption), so a sender that passes against it sends what a browser vendor's service accepts.
/// <reference path="./http-ece.d.ts" />
import { createECDH, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import ece from 'http_ece';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakePushService, type FakePushSubscription, startFakePushService } from './push-service';

let fake: FakePushService;
beforeAll(async () => {
  fake = await startFakePushService();
});
afterAll(() => fake.close());

interface Vapid {
  privateKey: KeyObject;
  /** The uncompressed public point, base64url: `k=` and a browser's applicationServerKey. */
  k: string;
}

function vapidKeys(): Vapid {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const point = Buffer.concat([
    Buffer.from([4]),
    Buffer.from(jwk.x!, 'base64url'),
    Buffer.from(jwk.y!, 'base64url'),
  ]);
  return { privateKey, k: point.toString('base64url') };
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function jwt(signer: KeyObject, claims: Record<string, unknown>): string {
  const unsigned = `${b64({ typ: 'JWT', alg: 'ES256' })}.${b64(claims)}`;
  const signature = sign('sha256', Buffer.from(unsigned), { key: signer, dsaEncoding: 'ieee-p1363' });
  return `${unsigned}.${signature.toString('base64url')}`;
}

function encrypt(subscription: FakePushSubscription, text: string): Buffer {
  const sender = createECDH('prime256v1');
  sender.generateKeys();
  return ece.encrypt(Buffer.from(text), {
    version: 'aes128gcm',
    privateKey: sender,
    dh: subscription.keys.p256dh,
    authSecret: subscription.keys.auth,
  });
}

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

async function push(
  subscription: FakePushSubscription,
  options: {
    vapid?: Vapid;
    claims?: Record<string, unknown>;
    signer?: KeyObject;
    headers?: Record<string, string>;
    body?: Buffer;
  } = {},
): Promise<Response> {
  const vapid = options.vapid ?? vapidKeys();
  const claims = { aud: fake.origin, exp: inAnHour(), sub: 'mailto:ops@example.test', ...options.claims };
  return fetch(subscription.endpoint, {
    method: 'POST',
    headers: {
      authorization: `vapid t=${jwt(options.signer ?? vapid.privateKey, claims)}, k=${vapid.k}`,
      ttl: '60',
      'content-encoding': 'aes128gcm',
      ...options.headers,
    },
    body: new Uint8Array(options.body ?? encrypt(subscription, '{"title":"hello"}')),
  });
}

describe('the fake push service', () => {
  it('accepts a VAPID-signed, encrypted message and records it decrypted', async () => {
    const vapid = vapidKeys();
    const subscription = fake.createSubscription({ applicationServerKey: vapid.k });
    const res = await push(subscription, { vapid, headers: { urgency: 'high' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toMatch(/\/message\//);
    expect(fake.messagesTo(subscription.endpoint)).toEqual([
      expect.objectContaining({
        payload: '{"title":"hello"}',
        ttl: 60,
        urgency: 'high',
        subject: 'mailto:ops@example.test',
      }),
    ]);
  });

  it('refuses VAPID credentials that do not hold (401)', async () => {
    const subscription = fake.createSubscription();
    const now = Math.floor(Date.now() / 1000);
    const refused = [
      await push(subscription, { claims: { aud: 'https://push.example.test' } }),
      await push(subscription, { claims: { exp: now - 1 } }),
      await push(subscription, { claims: { exp: now + 25 * 3600 } }),
      await push(subscription, { signer: vapidKeys().privateKey }),
      await push(subscription, { headers: { authorization: 'WebPush abc' } }),
    ];
    expect(refused.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    expect(fake.messagesTo(subscription.endpoint)).toEqual([]);
  });

  it('refuses another key than the applicationServerKey (403), no TTL (400), and a body it cannot decrypt (400)', async () => {
    const subscription = fake.createSubscription({ applicationServerKey: vapidKeys().k });
    expect((await push(subscription)).status).toBe(403);
    const open = fake.createSubscription();
    expect((await push(open, { headers: { ttl: '' } })).status).toBe(400);
    const other = fake.createSubscription();
    expect((await push(open, { body: encrypt(other, 'for someone else') })).status).toBe(400);
    expect(fake.messagesTo(open.endpoint)).toEqual([]);
  });

  it('answers 410 for an expired subscription and 404 for one it never made', async () => {
    const subscription = fake.createSubscription();
    fake.expire(subscription.endpoint);
    expect((await push(subscription)).status).toBe(410);
    expect((await push({ ...subscription, endpoint: `${fake.origin}/push/unknown` })).status).toBe(404);
  });
});
