// The fake Twilio refuses what Twilio refuses, and signs its webhooks as Twilio does (checked with the
// `twilio` package's own validator), so the senders and routes tested against it meet Twilio's rules.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeTwilio, startFakeTwilio } from './twilio';
import { parseTwiml } from './twilio/twiml';

const SID = `AC${'a'.repeat(32)}`;
const TOKEN = 'fake-twilio-test-token';
const FROM = '+15005550006';
let fake: FakeTwilio;

beforeAll(async () => {
  fake = await startFakeTwilio({ accountSid: SID, authToken: TOKEN, numbers: [FROM] });
});
afterAll(() => fake.close());

async function rest(resource: string, form: Record<string, string>, auth = `${SID}:${TOKEN}`) {
  const res = await fetch(`${fake.origin}/2010-04-01/Accounts/${SID}/${resource}`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(auth).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: (await res.json()) as { code?: number; sid?: string } };
}

describe('the fake Twilio REST API', () => {
  it("refuses what Twilio refuses, with Twilio's codes", async () => {
    const sms = { To: '+14155550100', From: FROM, Body: 'hi' };
    expect(await rest('Messages.json', sms, `${SID}:wrong`)).toMatchObject({
      status: 401,
      body: { code: 20003 },
    });
    expect(await rest('Messages.json', { ...sms, To: '4155550100' })).toMatchObject({
      status: 400,
      body: { code: 21211 },
    });
    expect(await rest('Messages.json', { ...sms, From: '+14155550199' })).toMatchObject({
      status: 400,
      body: { code: 21606 },
    });
    expect(await rest('Messages.json', { ...sms, Body: 'x'.repeat(1601) })).toMatchObject({
      status: 400,
      body: { code: 21617 },
    });
    expect(await rest('Calls.json', { To: '+14155550100', From: FROM, Url: 'not a url' })).toMatchObject({
      status: 400,
      body: { code: 21205 },
    });
    expect(fake.messages).toEqual([]);
  });

  it('rate limits like Twilio (429, code 20429) beyond the configured requests', async () => {
    const limited = await startFakeTwilio({
      accountSid: SID,
      authToken: TOKEN,
      rateLimit: { requests: 2, windowMs: 60_000 },
    });
    try {
      const send = async (body: string) => {
        const res = await fetch(`${limited.origin}/2010-04-01/Accounts/${SID}/Messages.json`, {
          method: 'POST',
          headers: { authorization: `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}` },
          body: new URLSearchParams({ To: '+14155550100', From: FROM, Body: body }),
        });
        return { status: res.status, code: ((await res.json()) as { code?: number }).code };
      };
      expect([await send('a'), await send('b'), await send('c')]).toEqual([
        { status: 201, code: undefined },
        { status: 201, code: undefined },
        { status: 429, code: 20429 },
      ]);
      expect(limited.messages.map((m) => m.body)).toEqual(['a', 'b']);
    } finally {
      await limited.close();
    }
  });

  it("signs a call's webhook so that Twilio's validator accepts it", async () => {
    const seen: boolean[] = [];
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => {
        raw += chunk.toString();
      });
      req.on('end', () => {
        const params = Object.fromEntries(new URLSearchParams(raw));
        const url = `http://${req.headers.host}${req.url}`;
        seen.push(twilio.validateRequest(TOKEN, String(req.headers['x-twilio-signature']), url, params));
        seen.push(
          twilio.validateRequest('another-token', String(req.headers['x-twilio-signature']), url, params),
        );
        res.writeHead(200, { 'content-type': 'text/xml' });
        res.end('<Response><Say>Hi &amp; bye</Say><Hangup/></Response>');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const unlimited = await startFakeTwilio({ accountSid: SID, authToken: TOKEN });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/voice?x=1`;
      const res = await fetch(`${unlimited.origin}/2010-04-01/Accounts/${SID}/Calls.json`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}` },
        body: new URLSearchParams({ To: '+14155550100', From: FROM, Url: url }),
      });
      const call = await unlimited.answered(((await res.json()) as { sid: string }).sid);
      expect(call.said).toEqual(['Hi & bye']);
      expect(call.answer?.twiml?.hangup).toBe(true);
      expect(seen).toEqual([true, false]);
    } finally {
      await unlimited.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('parseTwiml', () => {
  it('refuses a document that is not a <Response> (Twilio error 12100)', () => {
    expect(() => parseTwiml('{"say":"hello"}')).toThrow(/12100/);
    expect(parseTwiml('<?xml version="1.0"?><Response/>')).toEqual({
      said: [],
      gather: undefined,
      messages: [],
      hangup: false,
    });
  });
});
