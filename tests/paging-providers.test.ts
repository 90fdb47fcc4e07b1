// The worker's senders and the API's callbacks, joined through the fakes (docs/paging-twilio-push.md):
// what `placeCall` asks Twilio for is what the voice route answers and acknowledges, and what `sendPush`
// encrypts carries an acknowledge link that works when the service worker POSTs it. Over real HTTP, on
// this file's own database, with the embedded server's routes.
import { createECDH } from 'node:crypto';
import { type RunningServer, startServer } from '@firebreak/runtime';
import {
  createTestRuntime,
  createTestUser,
  type TestRuntime,
  type TestUser,
} from '@firebreak/runtime/testing';
import { createServerApp } from '@firebreak/server';
import { createIncident, pageLinkUrl } from '@firebreak/services';
import {
  bodyOf,
  type FakePushService,
  type FakeTwilio,
  getFreePort,
  startFakePushService,
  startFakeTwilio,
} from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PushPayload, sendPush } from '../apps/worker/src/notify/push-sender';
import { placeCall, sendSms } from '../apps/worker/src/notify/twilio-sender';

const ACCOUNT_SID = `AC${'5'.repeat(32)}`;
const AUTH_TOKEN = 'providers-test-auth-token';
const FROM = '+15005550006';
const PERSON = '+14155550123';
const vapid = vapidKeys();

/** A VAPID key pair as `web-push generate-vapid-keys` prints it: raw P-256 keys, base64url. */
function vapidKeys(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  // The private key is a 32-byte number; one in 256 is shorter without its leading zero byte.
  const raw = ecdh.getPrivateKey();
  const privateKey = Buffer.concat([Buffer.alloc(32 - raw.length), raw]).toString('base64url');
  return { publicKey: ecdh.getPublicKey('base64url'), privateKey };
}

let runtime: TestRuntime;
let server: RunningServer;
let publicUrl: string;
let twilio: FakeTwilio;
let push: FakePushService;
let person: TestUser;

beforeAll(async () => {
  [twilio, push] = await Promise.all([
    startFakeTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, numbers: [FROM] }),
    startFakePushService(),
  ]);
  const port = await getFreePort();
  publicUrl = `http://127.0.0.1:${port}`;
  runtime = await createTestRuntime({
    env: {
      PUBLIC_URL: publicUrl,
      TWILIO_ACCOUNT_SID: ACCOUNT_SID,
      TWILIO_AUTH_TOKEN: AUTH_TOKEN,
      TWILIO_FROM: FROM,
      TWILIO_API_URL: twilio.origin,
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: 'mailto:oncall@example.test',
    },
  });
  const app = createServerApp({ ctx: runtime.ctx, ready: runtime.ready, config: runtime.config });
  server = await startServer(app, port, runtime.logger, '127.0.0.1');
  person = await createTestUser(runtime, 'member', 'Pat Paged');
});
afterAll(async () => {
  await server?.close(1000);
  await Promise.all([twilio?.close(), push?.close()]);
  await runtime?.cleanup();
});

const actor = { type: 'system' as const, name: 'test' };
const statusOf = async (id: string) =>
  (
    await bodyOf(
      await fetch(`${publicUrl}/api/v1/incidents/${id}`, {
        headers: { authorization: `Bearer ${person.token}` },
      }),
    )
  ).status;
const lastEntry = async (id: string) =>
  (
    await bodyOf(
      await fetch(`${publicUrl}/api/v1/incidents/${id}/timeline`, {
        headers: { authorization: `Bearer ${person.token}` },
      }),
    )
  ).entries.at(-1);

describe('a paging call', () => {
  it('is placed by the worker, read by the API, and acknowledged with key 1', async () => {
    const incident = await createIncident(runtime.ctx, actor, { title: 'Search is slow', severity: 'high' });
    const link = await pageLinkUrl(runtime.ctx, { publicUrl, incidentId: incident.id, userId: person.id });
    const token = link.slice(link.lastIndexOf('/') + 1);
    // The voice URL as the worker builds it (apps/worker/src/notify/deliver-page.ts).
    const outcome = await placeCall(
      runtime.config.paging.twilio!,
      PERSON,
      `${publicUrl}/api/v1/paging/twilio/voice/${token}`,
    );
    expect(outcome).toMatchObject({ ok: true, providerId: expect.stringMatching(/^CA/) });
    const call = await twilio.answered(outcome.ok ? outcome.providerId! : '');
    expect(call.said[0]).toBe(
      `Hello Pat Paged. This is Firebreak. Incident ${incident.number}, severity high: Search is slow.`,
    );
    const reply = await twilio.pressDigits(call.sid, '1');
    expect(reply.twiml?.said).toEqual([
      `Incident ${incident.number} is acknowledged. Escalation stopped. Goodbye.`,
    ]);
    expect(await statusOf(incident.id)).toBe('acknowledged');
    expect(await lastEntry(incident.id)).toMatchObject({
      actor: { type: 'user', id: person.id },
      data: expect.objectContaining({ via: 'voice' }),
    });
  });
});

describe('a text message', () => {
  it('is sent from TWILIO_FROM with the page text', async () => {
    const outcome = await sendSms(
      runtime.config.paging.twilio!,
      PERSON,
      'Firebreak #7 critical: reply ACK 4821',
    );
    expect(outcome.ok).toBe(true);
    expect(twilio.messages.at(-1)).toMatchObject({
      from: FROM,
      to: PERSON,
      body: 'Firebreak #7 critical: reply ACK 4821',
    });
  });
});

describe('a push notification', () => {
  it("carries an acknowledge link the service worker's POST turns into an acknowledgement", async () => {
    const incident = await createIncident(runtime.ctx, actor, { title: 'Queue stuck', severity: 'critical' });
    const link = await pageLinkUrl(runtime.ctx, { publicUrl, incidentId: incident.id, userId: person.id });
    const subscription = push.createSubscription({ applicationServerKey: vapid.publicKey });
    const payload: PushPayload = {
      title: `#${incident.number} critical: Queue stuck`,
      body: 'Pat Paged, you are paged.',
      url: `${publicUrl}/incidents/${incident.number}`,
      ack_url: `${link}?via=push`,
      tag: `incident-${incident.id}`,
    };
    expect(await sendPush(runtime.config.paging.push!, subscription, payload)).toMatchObject({ ok: true });
    // What the browser decrypted, and what the service worker does with it (apps/web/public/sw.js).
    const received = JSON.parse(push.messagesTo(subscription.endpoint)[0]!.payload) as PushPayload;
    expect(received).toEqual(payload);
    const ack = await fetch(received.ack_url, { method: 'POST', headers: { accept: 'application/json' } });
    expect(ack.status).toBe(200);
    expect(await bodyOf(ack)).toMatchObject({ outcome: 'acknowledged' });
    expect(await statusOf(incident.id)).toBe('acknowledged');
    expect(await lastEntry(incident.id)).toMatchObject({ data: expect.objectContaining({ via: 'push' }) });
  });
});
