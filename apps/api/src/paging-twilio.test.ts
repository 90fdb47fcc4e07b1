// Twilio's callbacks (docs/paging-twilio-push.md#twilio-webhooks) over real HTTP: the fake Twilio
// places the call and fetches the voice URL signed as Twilio signs, reads the TwiML the way a caller
// hears it, and presses keys; inbound texts are posted the same way.
import { createSql } from '@firebreak/db';
import { type RunningServer, startServer } from '@firebreak/runtime';
import { startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import { signPageLink } from '@firebreak/services';
import {
  bodyOf,
  type FakeTwilio,
  getFreePort,
  parseTwiml,
  startFakeTwilio,
  type TestClient,
} from '@firebreak/testing';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

const ACCOUNT_SID = `AC${'7'.repeat(32)}`;
const AUTH_TOKEN = 'twilio-route-test-auth-token';
const FROM = '+15005550006';
const PERSON = '+14155550142';

let runtime: TestRuntime;
let api: TestClient;
let member: TestUser;
let fake: FakeTwilio;
let server: RunningServer;
let publicUrl: string;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  fake = await startFakeTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, numbers: [FROM] });
  const port = await getFreePort();
  publicUrl = `http://127.0.0.1:${port}`;
  ({
    runtime,
    api,
    app,
    users: { member },
  } = await startTestApp(createApp, {
    env: {
      PUBLIC_URL: publicUrl,
      TWILIO_ACCOUNT_SID: ACCOUNT_SID,
      TWILIO_AUTH_TOKEN: AUTH_TOKEN,
      TWILIO_FROM: FROM,
      TWILIO_API_URL: fake.origin,
    },
    users: { member: { role: 'member', name: 'Mia Member' } },
  }));
  server = await startServer(app, port, runtime.logger, '127.0.0.1');
});
afterAll(async () => {
  await server?.close(1000);
  await fake?.close();
  await runtime?.cleanup();
});

async function openIncident(title = 'Checkout is down') {
  const res = await api('POST', '/api/v1/incidents', {
    token: member.token,
    body: { title, severity: 'critical' },
  });
  expect(res.status).toBe(201);
  return bodyOf(res) as Promise<{ id: string; number: number }>;
}
const incidentOf = async (id: string) =>
  bodyOf(await api('GET', `/api/v1/incidents/${id}`, { token: member.token }));
const voiceUrl = (token: string) => `${publicUrl}/api/v1/paging/twilio/voice/${token}`;

/** What the worker's placeCall does: ask Twilio (the fake) to dial the person and fetch `url`. */
async function call(url: string): Promise<string> {
  const res = await fetch(`${fake.origin}/2010-04-01/Accounts/${ACCOUNT_SID}/Calls.json`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ To: PERSON, From: FROM, Url: url, Method: 'POST' }).toString(),
  });
  expect(res.status).toBe(201);
  return (await bodyOf(res)).sid;
}

describe('the paging call', () => {
  it('reads the incident, asks for 1, and acknowledges as the paged person when 1 is pressed', async () => {
    const incident = await openIncident();
    const token = await signPageLink(runtime.ctx, incident.id, member.id);
    const sid = await call(voiceUrl(token));
    const answered = await fake.answered(sid);
    expect(answered.answer?.status).toBe(200);
    expect(answered.said).toEqual([
      `Hello Mia Member. This is Firebreak. Incident ${incident.number}, severity critical: Checkout is down.`,
      `Press 1 to acknowledge incident ${incident.number}.`,
      'No key was pressed. The page continues. Goodbye.',
    ]);
    expect(answered.answer?.twiml?.gather).toMatchObject({
      numDigits: 1,
      action: `${voiceUrl(token)}/gather`,
    });

    const wrongKey = await fake.pressDigits(sid, '2');
    expect(wrongKey.twiml?.said).toEqual([
      'You pressed 2.',
      `Press 1 to acknowledge incident ${incident.number}.`,
      'No key was pressed. Goodbye.',
    ]);
    expect((await incidentOf(incident.id)).status).toBe('triggered');

    const ack = await fake.pressDigits(sid, '1');
    expect(ack.twiml?.said).toEqual([
      `Incident ${incident.number} is acknowledged. Escalation stopped. Goodbye.`,
    ]);
    expect(ack.twiml?.hangup).toBe(true);
    expect(await incidentOf(incident.id)).toMatchObject({ status: 'acknowledged' });
    // The token acknowledges without a login: the request log keeps only its first characters.
    expect(JSON.stringify(runtime.logs.lines)).not.toContain(token);
    expect(runtime.logs.lines).toContainEqual(
      expect.objectContaining({ path: `/api/v1/paging/twilio/voice/${token.slice(0, 4)}…/gather` }),
    );
    const { entries } = await bodyOf(
      await api('GET', `/api/v1/incidents/${incident.id}/timeline`, { token: member.token }),
    );
    expect(entries.at(-1)).toMatchObject({
      type: 'status_changed',
      actor: { type: 'user', id: member.id },
      data: expect.objectContaining({ to: 'acknowledged', via: 'voice' }),
    });
  });

  it('tells the person when the incident was acknowledged meanwhile, and changes nothing', async () => {
    const incident = await openIncident('Disk full');
    const token = await signPageLink(runtime.ctx, incident.id, member.id);
    const sid = await call(voiceUrl(token));
    await fake.answered(sid);
    await api('PATCH', `/api/v1/incidents/${incident.id}`, {
      token: member.token,
      body: { status: 'resolved' },
    });
    const reply = await fake.pressDigits(sid, '1');
    // The timeline says who took it.
    expect(reply.twiml?.said).toEqual([
      `Incident ${incident.number} is already resolved by Mia Member. Goodbye.`,
    ]);
    expect((await incidentOf(incident.id)).status).toBe('resolved');

    // A new call about it only says so: there is nothing to press.
    const later = await fake.answered(await call(voiceUrl(token)));
    expect(later.said.at(-1)).toBe('It is already resolved. Nothing to do. Goodbye.');
    expect(later.answer?.twiml?.gather).toBeUndefined();
  });

  it('says a link that is not genuine is no longer valid and hangs up', async () => {
    const answered = await fake.answered(await call(voiceUrl('x'.repeat(70))));
    expect(answered.said).toEqual([
      'This page is no longer valid. Open Firebreak to see the incident. Goodbye.',
    ]);
    expect(answered.answer?.twiml?.hangup).toBe(true);
  });
});

describe('the signature', () => {
  const post = (path: string, params: Record<string, string>, signature?: string) =>
    app.request(path, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(signature === undefined ? {} : { 'x-twilio-signature': signature }),
      },
      body: new URLSearchParams(params).toString(),
    });

  it('refuses a missing or wrong signature with 403 and acknowledges nothing', async () => {
    const incident = await openIncident('Queue backlog');
    const token = await signPageLink(runtime.ctx, incident.id, member.id);
    const path = `/api/v1/paging/twilio/voice/${token}/gather`;
    const params = { CallSid: `CA${'1'.repeat(32)}`, From: FROM, To: PERSON, Digits: '1' };
    const unsigned = await post(path, params);
    expect(unsigned.status).toBe(403);
    expect((await bodyOf(unsigned)).error.code).toBe('forbidden');
    // Signed with another token, or over another URL than PUBLIC_URL + path (what Twilio called).
    expect(
      (
        await post(
          path,
          params,
          twilio.getExpectedTwilioSignature('another-token', `${publicUrl}${path}`, params),
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await post(
          path,
          params,
          twilio.getExpectedTwilioSignature(AUTH_TOKEN, `http://localhost${path}`, params),
        )
      ).status,
    ).toBe(403);
    // The form changed after signing (Digits 2 signed, 1 sent).
    const forged = twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${publicUrl}${path}`, {
      ...params,
      Digits: '2',
    });
    expect((await post(path, params, forged)).status).toBe(403);
    expect((await incidentOf(incident.id)).status).toBe('triggered');
    expect(runtime.logs.lines).toContainEqual(
      expect.objectContaining({ msg: 'invalid_signature', integration: 'twilio' }),
    );
    // The same request, signed as Twilio signs it, goes through.
    const genuine = twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${publicUrl}${path}`, params);
    expect((await post(path, params, genuine)).status).toBe(200);
    expect((await incidentOf(incident.id)).status).toBe('acknowledged');
  });

  it('refuses every callback while Twilio is not configured', async () => {
    const unconfigured = createApp({
      ctx: runtime.ctx,
      ready: runtime.ready,
      config: { ...runtime.config, paging: { ...runtime.config.paging, twilio: undefined } },
    });
    const params = { MessageSid: `SM${'2'.repeat(32)}`, From: PERSON, To: FROM, Body: 'ACK 1234' };
    const path = '/api/v1/paging/twilio/sms';
    const res = await unconfigured.request(path, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${publicUrl}${path}`, params),
      },
      body: new URLSearchParams(params).toString(),
    });
    expect(res.status).toBe(403);
  });
});

describe('failures', () => {
  it('still answers TwiML when the database is down, so the caller hears what to do', async () => {
    const dead = createSql('postgres://firebreak@127.0.0.1:1/firebreak', { max: 1 });
    const broken = createApp({
      ctx: { ...runtime.ctx, sql: dead },
      ready: runtime.ready,
      config: runtime.config,
    });
    try {
      const incident = await openIncident('Database down');
      const path = `/api/v1/paging/twilio/voice/${await signPageLink(runtime.ctx, incident.id, member.id)}`;
      const params = { CallSid: `CA${'3'.repeat(32)}`, From: FROM, To: PERSON };
      const res = await broken.request(path, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${publicUrl}${path}`, params),
        },
        body: new URLSearchParams(params).toString(),
      });
      expect(res.status).toBe(200);
      expect(parseTwiml(await res.text())).toMatchObject({
        said: ['Firebreak could not record the acknowledgement. Acknowledge in the app or the chat channel.'],
        hangup: true,
      });
      // Reported as every database outage is (docs/runbooks/README.md), not as a Twilio failure.
      expect(runtime.logs.messages()).toContainEqual(expect.stringMatching(/^database: /));
      expect(runtime.logs.messages()).not.toContain('twilio callback failed');
    } finally {
      await dead.end();
    }
  });
});

describe('inbound SMS', () => {
  const smsUrl = () => `${publicUrl}/api/v1/paging/twilio/sms`;

  it("answers with the service's reply as a TwiML <Message>", async () => {
    const help = await fake.sendInboundSms({ from: PERSON, body: 'what is this?', url: smsUrl() });
    expect(help.status).toBe(200);
    expect(help.twiml?.messages).toEqual([
      'Firebreak: reply ACK followed by the code in the page, e.g. ACK 1234.',
    ]);
    const stranger = await fake.sendInboundSms({ from: '+14155550999', body: 'ack 4821', url: smsUrl() });
    expect(stranger.twiml?.messages).toEqual([
      'Firebreak: this number is not a verified contact of any user.',
    ]);
  });

  it('refuses a text whose signature does not match', async () => {
    const forged = await fake.sendInboundSms({
      from: PERSON,
      body: 'ACK 1',
      url: smsUrl(),
      signature: 'bm90IGEgc2lnbmF0dXJl',
    });
    expect(forged.status).toBe(403);
    expect(forged.twiml).toBeUndefined();
  });
});
