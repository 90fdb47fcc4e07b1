// Every inbound chat request carries a v0 signature over its raw
// body, made within 5 minutes; anything else is 401 `invalid_signature`, counted in /metrics, and the log
// line `invalid_signature` (once per burst: a misconfigured sender must not flood the log).

import { failureCount } from '@firebreak/runtime/testing';
import {
  blockActionsBody,
  blockActionsPayload,
  bodyOf,
  eventCallback,
  type SignedChatRequest,
  signChatRequest,
  signedChatRequest,
  slashCommandBody,
  urlVerification,
} from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatTestApp, SIGNING_SECRET, startChatTestApp } from './chat-test-app';

let s: ChatTestApp;
beforeAll(async () => {
  s = await startChatTestApp();
});
afterAll(() => s.cleanup());

const form = 'application/x-www-form-urlencoded' as const;
type ContentType = typeof form | 'application/json';
// Built once the fake is up, so that a reply to a button goes to the fake and never to the real Slack.
const bodies: Record<string, () => [string, ContentType]> = {
  '/api/v1/chat/commands': () => [
    slashCommandBody({ text: 'help', response_url: s.fake.responseUrl() }),
    form,
  ],
  '/api/v1/chat/actions': () => [
    blockActionsBody(
      blockActionsPayload({ actionId: 'incident_acknowledge', responseUrl: s.fake.responseUrl('actions') }),
    ),
    form,
  ],
  '/api/v1/chat/events': () => [JSON.stringify(urlVerification('abc')), 'application/json'],
};
const paths = Object.keys(bodies);
const now = () => Math.floor(Date.now() / 1000);

const refusals = () => failureCount(s.runtime.ctx.metrics, 'signature:chat', 'invalid_signature');

async function expectRefused(path: string, request: SignedChatRequest, message = /X-Slack-Signature/) {
  const before = await refusals();
  const res = await s.send(path, request);
  expect(res.status).toBe(401);
  const body = await bodyOf(res);
  expect(body.error).toMatchObject({ code: 'invalid_signature' });
  expect(body.error.message).toMatch(message);
  expect(await refusals()).toBe(before + 1);
  expect(s.runtime.logs.messages()).toContain('invalid_signature');
}

describe('the invalid_signature log line', () => {
  it('is written once for a burst of refused requests, each of which is counted', async () => {
    const logged = () => s.runtime.logs.lines.filter((l) => l.msg === 'invalid_signature');
    const linesBefore = logged().length;
    const countBefore = await refusals();
    for (let i = 0; i < 5; i++) {
      const res = await s.send(paths[0]!, signedChatRequest('not-the-secret', bodies[paths[0]!]!()[0], form));
      expect(res.status).toBe(401);
    }
    expect(await refusals()).toBe(countBefore + 5);
    expect(logged().length).toBe(linesBefore + 1); // this describe runs first in the file
    expect(logged().at(-1)).toMatchObject({
      level: 'error',
      integration: 'chat',
      component: 'signature:chat',
    });
  });
});

describe.each(paths)('POST %s', (path) => {
  let body: string;
  let contentType: ContentType;
  beforeAll(() => {
    [body, contentType] = bodies[path]!();
  });

  it('accepts a correctly signed request', async () => {
    const res = await s.send(path, signedChatRequest(SIGNING_SECRET, body, contentType));
    expect(res.status).toBe(200);
  });

  it('refuses a request without the signature headers', async () => {
    await expectRefused(path, { body, headers: { 'content-type': contentType } });
  });

  it('refuses a signature made with another secret', async () => {
    await expectRefused(path, signedChatRequest('not-the-secret', body, contentType));
  });

  it('refuses a body changed after signing', async () => {
    const signed = signedChatRequest(SIGNING_SECRET, body, contentType);
    await expectRefused(path, { ...signed, body: `${body} ` });
  });

  it('refuses timestamps more than 5 minutes old or ahead, and accepts 4 minutes', async () => {
    await expectRefused(
      path,
      signedChatRequest(SIGNING_SECRET, body, contentType, { timestamp: now() - 310 }),
    );
    await expectRefused(
      path,
      signedChatRequest(SIGNING_SECRET, body, contentType, { timestamp: now() + 310 }),
    );
    const recent = signedChatRequest(SIGNING_SECRET, body, contentType, { timestamp: now() - 240 });
    expect((await s.send(path, recent)).status).toBe(200);
  });

  it('refuses a signature of another version and a timestamp that is not a number', async () => {
    const ts = now();
    const v0 = signChatRequest(SIGNING_SECRET, body, ts);
    const headers = { 'content-type': contentType, 'x-slack-request-timestamp': String(ts) };
    await expectRefused(path, {
      body,
      headers: { ...headers, 'x-slack-signature': v0.replace('v0=', 'v1=') },
    });
    await expectRefused(path, {
      body,
      headers: { ...headers, 'x-slack-request-timestamp': 'now', 'x-slack-signature': v0 },
    });
  });
});

describe('without CHAT_SIGNING_SECRET', () => {
  let unsigned: ChatTestApp;
  beforeAll(async () => {
    unsigned = await startChatTestApp({ env: { CHAT_SIGNING_SECRET: '' } });
  });
  afterAll(() => unsigned.cleanup());

  it('refuses every chat request, even one signed with some secret, and says why', async () => {
    expect(unsigned.runtime.config.chat.signingSecret).toBeUndefined();
    for (const path of paths) {
      const [body, contentType] = bodies[path]!();
      const res = await unsigned.send(path, signedChatRequest(SIGNING_SECRET, body, contentType));
      expect(res.status).toBe(401);
      const error = (await bodyOf(res)).error;
      expect(error.code).toBe('invalid_signature');
      expect(error.message).toContain('CHAT_SIGNING_SECRET is not set');
    }
    // Three refusals, one line: the reason is the same each time.
    const lines = unsigned.runtime.logs.lines.filter((l) => l.msg === 'invalid_signature');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ why: 'no_signing_secret' });
    expect(await failureCount(unsigned.runtime.ctx.metrics, 'signature:chat', 'invalid_signature')).toBe(3);
  });
});

describe('limits', () => {
  it('answers 413 to bodies over 1 MiB', async () => {
    const body = eventCallback({ type: 'app_mention', text: 'x'.repeat(1024 * 1024) });
    const res = await s.send(
      '/api/v1/chat/events',
      signedChatRequest(SIGNING_SECRET, JSON.stringify(body), 'application/json'),
    );
    expect(res.status).toBe(413);
  });

  it('needs no bearer token and is not rate limited like the API', async () => {
    const res = await s.send(
      '/api/v1/chat/commands',
      signedChatRequest(SIGNING_SECRET, slashCommandBody(), form),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBeNull();
  });
});
