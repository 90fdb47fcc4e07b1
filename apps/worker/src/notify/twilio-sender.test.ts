// The SMS and voice senders against the fake Twilio (docs/paging-twilio-push.md#sms, #voice).
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { type FakeTwilio, startFakeTwilio } from '@firebreak/testing';
import twilio from 'twilio';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { placeCall, sendSms, type TwilioConfig } from './twilio-sender';

const ACCOUNT_SID = `AC${'0'.repeat(31)}1`;
const AUTH_TOKEN = 'twilio-auth-token-never-logged';
const FROM = '+15005550006';

let fake: FakeTwilio;
let cfg: TwilioConfig;

beforeAll(async () => {
  fake = await startFakeTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, numbers: [FROM] });
});
afterAll(() => fake.close());
beforeEach(() => {
  cfg = { accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, from: FROM, apiUrl: fake.origin };
  fake.messages.length = 0;
  fake.optedOut.clear();
});

describe('sendSms', () => {
  it('sends the text from the configured number and reports the message SID', async () => {
    const outcome = await sendSms(cfg, '+14155550100', 'INC-7 critical: database down');
    expect(outcome).toEqual({ ok: true, providerId: expect.stringMatching(/^SM[0-9a-f]{32}$/) });
    expect(fake.messages).toEqual([
      expect.objectContaining({ to: '+14155550100', from: FROM, body: 'INC-7 critical: database down' }),
    ]);
    expect(outcome.ok && outcome.providerId).toBe(fake.messages[0]!.sid);
  });

  it('reports a number Twilio refuses as not retryable, with its code', async () => {
    const outcome = await sendSms(cfg, '415-555-0100', 'hello');
    expect(outcome).toMatchObject({
      ok: false,
      retryable: false,
      error: expect.stringContaining('code 21211'),
    });
    expect(fake.messages).toEqual([]);
  });

  it('reports a recipient who replied STOP as not retryable (21610)', async () => {
    fake.optedOut.add('+14155550101');
    const outcome = await sendSms(cfg, '+14155550101', 'hello');
    expect(outcome).toMatchObject({
      ok: false,
      retryable: false,
      error: expect.stringContaining('code 21610'),
    });
  });

  it('reports wrong credentials as not retryable and never repeats the token', async () => {
    const outcome = await sendSms({ ...cfg, authToken: 'a-wrong-token' }, '+14155550100', 'hello');
    expect(outcome).toMatchObject({
      ok: false,
      retryable: false,
      error: expect.stringContaining('401 code 20003'),
    });
    expect(JSON.stringify(outcome)).not.toContain('a-wrong-token');
  });

  it('reports a 5xx as retryable', async () => {
    fake.failNext(503);
    const outcome = await sendSms(cfg, '+14155550100', 'hello');
    expect(outcome).toMatchObject({
      ok: false,
      retryable: true,
      error: expect.stringContaining('twilio 503'),
    });
    expect(fake.messages).toEqual([]);
  });

  it('reports an unreachable Twilio as retryable', async () => {
    const closedPort = await freePort();
    const outcome = await sendSms({ ...cfg, apiUrl: `http://127.0.0.1:${closedPort}` }, '+14155550100', 'x');
    expect(outcome).toEqual({ ok: false, retryable: true, error: 'twilio unreachable: ECONNREFUSED' });
  });
});

describe('rate limits', () => {
  it("reports a 429 (20429) as retryable with the answer's Retry-After", async () => {
    const limited = await startFakeTwilio({
      accountSid: ACCOUNT_SID,
      authToken: AUTH_TOKEN,
      rateLimit: { requests: 1, windowMs: 60_000, retryAfterSeconds: 2 },
    });
    try {
      const limitedCfg = { ...cfg, apiUrl: limited.origin };
      expect(await sendSms(limitedCfg, '+14155550100', 'first')).toMatchObject({ ok: true });
      const second = await sendSms(limitedCfg, '+14155550100', 'second');
      expect(second).toEqual({
        ok: false,
        retryable: true,
        retryAfterMs: 2000,
        error: 'twilio 429 code 20429: Too Many Requests',
      });
      expect(limited.messages.map((m) => m.body)).toEqual(['first']);
    } finally {
      await limited.close();
    }
  });
});

describe('placeCall', () => {
  it('starts a call whose TwiML Twilio fetches, signed, and whose Gather takes a key', async () => {
    // A stand-in for the voice route: it verifies the signature as Twilio's own library does.
    const verified: boolean[] = [];
    const server = createHttpServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => {
        raw += chunk.toString();
      });
      req.on('end', () => {
        const params = Object.fromEntries(new URLSearchParams(raw));
        const url = `http://${req.headers.host}${req.url}`;
        const signature = String(req.headers['x-twilio-signature'] ?? '');
        verified.push(twilio.validateRequest(AUTH_TOKEN, signature, url, params));
        const twiml = params.Digits
          ? `<Response><Say>You pressed ${params.Digits}.</Say></Response>`
          : '<Response><Gather numDigits="1" action="/voice/abc/gather"><Say>Press 1.</Say></Gather></Response>';
        res.writeHead(200, { 'content-type': 'text/xml' });
        res.end(`<?xml version="1.0" encoding="UTF-8"?>${twiml}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const outcome = await placeCall(cfg, '+14155550100', `http://127.0.0.1:${port}/voice/abc`);
      expect(outcome).toEqual({ ok: true, providerId: expect.stringMatching(/^CA[0-9a-f]{32}$/) });
      const callSid = outcome.ok ? outcome.providerId! : '';
      const call = await fake.answered(callSid);
      expect(call).toMatchObject({ to: '+14155550100', from: FROM, said: ['Press 1.'] });
      expect(call.answer?.params).toMatchObject({ CallSid: callSid, From: FROM, To: '+14155550100' });
      const reply = await fake.pressDigits(callSid, '1');
      expect(reply.url).toBe(`http://127.0.0.1:${port}/voice/abc/gather`);
      expect(reply.twiml?.said).toEqual(['You pressed 1.']);
      expect(verified).toEqual([true, true]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a number that is not E.164 before dialling', async () => {
    const outcome = await placeCall(cfg, '0800 123', 'http://127.0.0.1:1/voice/abc');
    expect(outcome).toMatchObject({
      ok: false,
      retryable: false,
      error: expect.stringContaining('code 21211'),
    });
  });
});

/** A port nothing listens on: bound once, then released. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
