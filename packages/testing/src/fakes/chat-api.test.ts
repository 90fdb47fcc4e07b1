import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeChatApi, startFakeChatApi } from './chat-api';
import {
  blockActionsPayload,
  eventCallback,
  signChatRequest,
  signedBlockActions,
  signedEvent,
  signedSlashCommand,
  slashCommandBody,
  urlVerification,
} from './chat-api/signing';

// @slack/web-api is not resolvable from packages/testing, so these tests speak its wire format by hand:
// POST, form-encoded, `blocks` JSON-stringified into a field, `Authorization: Bearer <token>`.
type Args = Record<string, unknown>;
interface ApiResult {
  status: number;
  headers: Headers;
  body: Record<string, unknown> & { ok: boolean; error?: string };
}

async function call(
  api: FakeChatApi,
  method: string,
  args: Args = {},
  options: { token?: string | null; json?: boolean } = {},
): Promise<ApiResult> {
  const token = options.token === undefined ? api.botToken : options.token;
  const headers: Record<string, string> = {
    'content-type': options.json ? 'application/json; charset=utf-8' : 'application/x-www-form-urlencoded',
  };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const form = Object.entries(args).map(([k, v]): [string, string] => [
    k,
    typeof v === 'string' ? v : JSON.stringify(v),
  ]);
  const body = options.json ? JSON.stringify(args) : new URLSearchParams(form).toString();
  const res = await fetch(`${api.url}${method}`, { method: 'POST', headers, body });
  return { status: res.status, headers: res.headers, body: (await res.json()) as ApiResult['body'] };
}

const channelOf = (r: ApiResult) => r.body.channel as Record<string, unknown>;

let api: FakeChatApi;

beforeEach(async () => {
  api = await startFakeChatApi({
    channels: [
      { name: 'general', id: 'C0GENERAL', creator: 'U0ALICE01', members: ['U0ALICE01'] },
      { name: 'old-archived', archived: true },
    ],
  });
});

afterEach(async () => {
  await api.close();
});

describe('transport and auth', () => {
  it('serves the Web API under a base URL ending in /api/', async () => {
    expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/);
    const r = await call(api, 'auth.test');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      ok: true,
      url: 'https://acme.slack.com/',
      team: 'Acme',
      user: 'incident-bot',
      team_id: 'T0TEAM001',
      user_id: 'U0BOTUSR1',
      bot_id: 'B0BOT0001',
      is_enterprise_install: false,
    });
    expect(r.headers.get('x-oauth-scopes')).toContain('chat:write');
  });

  it('answers not_authed without a token and invalid_auth for a wrong one, both with HTTP 200', async () => {
    expect((await call(api, 'auth.test', {}, { token: null })).body).toEqual({
      ok: false,
      error: 'not_authed',
    });
    const wrong = await call(api, 'auth.test', {}, { token: 'xoxb-wrong' });
    expect(wrong.status).toBe(200);
    expect(wrong.body).toEqual({ ok: false, error: 'invalid_auth' });
  });

  it('accepts the token as a form field, and refuses everything once the token is revoked', async () => {
    expect((await call(api, 'auth.test', { token: api.botToken }, { token: null })).body.ok).toBe(true);
    api.setTokenValid(false);
    expect((await call(api, 'auth.test')).body.error).toBe('invalid_auth');
    expect((await call(api, 'chat.postMessage', { channel: 'C0GENERAL', text: 'x' })).body.error).toBe(
      'invalid_auth',
    );
    api.setTokenValid(true);
    expect((await call(api, 'auth.test')).body.ok).toBe(true);
  });

  it('takes JSON bodies as well as form bodies', async () => {
    const r = await call(api, 'conversations.create', { name: 'from-json' }, { json: true });
    expect(r.body.ok).toBe(true);
    expect(api.channel('from-json')).toBeDefined();
  });

  it('answers unknown_method for methods it does not implement', async () => {
    expect((await call(api, 'admin.teams.list')).body).toEqual({
      ok: false,
      error: 'unknown_method',
      req_method: 'admin.teams.list',
    });
  });

  it('logs every call with method, decoded args, token and time', async () => {
    const before = Date.now();
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*hi*' } }];
    await call(api, 'chat.postMessage', { channel: 'C0GENERAL', text: 'hi', blocks });
    const [logged] = api.callsTo('chat.postMessage');
    expect(logged?.args).toMatchObject({ channel: 'C0GENERAL', text: 'hi', blocks });
    expect(logged?.token).toBe(api.botToken);
    expect(logged?.time.getTime()).toBeGreaterThanOrEqual(before);
    expect(logged?.response?.ok).toBe(true);
  });
});

describe('conversations.create and rename: Slack naming rules', () => {
  it('creates a channel the bot created and is in, shaped like Slack', async () => {
    const r = await call(api, 'conversations.create', { name: 'inc-42-database-primary-down' });
    expect(r.body.ok).toBe(true);
    expect(channelOf(r)).toMatchObject({
      name: 'inc-42-database-primary-down',
      name_normalized: 'inc-42-database-primary-down',
      is_channel: true,
      is_private: false,
      is_archived: false,
      is_member: true,
      creator: 'U0BOTUSR1',
      topic: { value: '', creator: '', last_set: 0 },
      previous_names: [],
    });
    expect(channelOf(r).id).toMatch(/^C[A-Z0-9]+$/);
    expect(api.channel('inc-42-database-primary-down')?.members.has('U0BOTUSR1')).toBe(true);
  });

  it.each([
    ['', 'invalid_name_required'],
    ['[RESOLVED] #inc-42-db-down', 'invalid_name_specials'],
    ['Inc-42-db', 'invalid_name_specials'],
    ['inc 42', 'invalid_name_specials'],
    ['inc.42', 'invalid_name_specials'],
    ['x'.repeat(81), 'invalid_name_maxlength'],
    ['---', 'invalid_name_punctuation'],
  ])('refuses %j with %s', async (name, error) => {
    expect((await call(api, 'conversations.create', { name })).body).toEqual({ ok: false, error });
  });

  it('accepts an 80-character name with digits, hyphens and underscores', async () => {
    const name = `inc_1-${'a'.repeat(74)}`;
    expect(name).toHaveLength(80);
    expect((await call(api, 'conversations.create', { name })).body.ok).toBe(true);
  });

  it('answers name_taken for live and archived channels, but not for deleted ones', async () => {
    expect((await call(api, 'conversations.create', { name: 'general' })).body.error).toBe('name_taken');
    expect((await call(api, 'conversations.create', { name: 'old-archived' })).body.error).toBe('name_taken');
    api.deleteChannel('general');
    expect((await call(api, 'conversations.create', { name: 'general' })).body.ok).toBe(true);
  });

  it('refuses the literal [RESOLVED] rename and accepts the Slack-legal one', async () => {
    const id = channelOf(await call(api, 'conversations.create', { name: 'inc-42-db-down' })).id;
    const literal = await call(api, 'conversations.rename', {
      channel: id,
      name: '[RESOLVED] #inc-42-db-down',
    });
    expect(literal.body).toEqual({ ok: false, error: 'invalid_name_specials' });
    expect(api.channel(String(id))?.name).toBe('inc-42-db-down');

    const r = await call(api, 'conversations.rename', { channel: id, name: 'resolved-inc-42-db-down' });
    expect(channelOf(r)).toMatchObject({
      name: 'resolved-inc-42-db-down',
      previous_names: ['inc-42-db-down'],
    });
  });

  it('rename: name_taken, not_authorized for a channel the bot did not create, not_in_channel, is_archived', async () => {
    const id = String(channelOf(await call(api, 'conversations.create', { name: 'inc-1-a' })).id);
    expect((await call(api, 'conversations.rename', { channel: id, name: 'general' })).body.error).toBe(
      'name_taken',
    );
    await call(api, 'conversations.join', { channel: 'C0GENERAL' });
    expect((await call(api, 'conversations.rename', { channel: 'C0GENERAL', name: 'x' })).body.error).toBe(
      'not_authorized',
    );
    api.removeBotFromChannel(id);
    expect((await call(api, 'conversations.rename', { channel: id, name: 'b' })).body.error).toBe(
      'not_in_channel',
    );
    api.archiveChannel(id);
    expect((await call(api, 'conversations.rename', { channel: id, name: 'b' })).body.error).toBe(
      'is_archived',
    );
    expect((await call(api, 'conversations.rename', { channel: 'C0NOPE', name: 'b' })).body.error).toBe(
      'channel_not_found',
    );
  });
});

describe('topic, purpose, join, invite, info', () => {
  it('sets topic and purpose, refusing more than 250 characters', async () => {
    const id = channelOf(await call(api, 'conversations.create', { name: 'inc-7-x' })).id;
    const topic = '[RESOLVED] #inc-7-x · resolved by alice';
    const r = await call(api, 'conversations.setTopic', { channel: id, topic });
    expect(channelOf(r).topic).toMatchObject({ value: topic, creator: 'U0BOTUSR1' });
    await call(api, 'conversations.setPurpose', { channel: id, purpose: 'INC-7' });
    expect(api.channel('inc-7-x')?.purpose.value).toBe('INC-7');
    expect(
      (await call(api, 'conversations.setTopic', { channel: id, topic: 'x'.repeat(251) })).body.error,
    ).toBe('too_long');
  });

  it('join adds the bot; joining again answers ok with the already_in_channel warning', async () => {
    expect(channelOf(await call(api, 'conversations.join', { channel: 'C0GENERAL' })).is_member).toBe(true);
    expect((await call(api, 'conversations.join', { channel: 'C0GENERAL' })).body).toMatchObject({
      ok: true,
      warning: 'already_in_channel',
      response_metadata: { warnings: ['already_in_channel'] },
    });
  });

  it('invite adds members and refuses unknown users, members and the bot itself', async () => {
    const id = channelOf(await call(api, 'conversations.create', { name: 'inc-8-y' })).id;
    expect(
      (await call(api, 'conversations.invite', { channel: id, users: 'U0ALICE01,U0BOB0002' })).body.ok,
    ).toBe(true);
    expect([...(api.channel('inc-8-y')?.members ?? [])]).toEqual(['U0BOTUSR1', 'U0ALICE01', 'U0BOB0002']);
    const again = await call(api, 'conversations.invite', { channel: id, users: 'U0ALICE01' });
    expect(again.body.error).toBe('already_in_channel');
    expect((await call(api, 'conversations.invite', { channel: id, users: 'U0NOBODY' })).body.error).toBe(
      'user_not_found',
    );
    expect((await call(api, 'conversations.invite', { channel: id, users: 'U0BOTUSR1' })).body.error).toBe(
      'cant_invite_self',
    );
  });

  it('info shows archived channels and hides deleted ones', async () => {
    const id = String(channelOf(await call(api, 'conversations.create', { name: 'inc-9-z' })).id);
    api.archiveChannel(id);
    expect(channelOf(await call(api, 'conversations.info', { channel: id })).is_archived).toBe(true);
    api.deleteChannel(id);
    expect((await call(api, 'conversations.info', { channel: id })).body.error).toBe('channel_not_found');
  });

  it('answers missing_scope with needed and provided', async () => {
    api.removeScopes('channels:manage');
    const r = await call(api, 'conversations.create', { name: 'inc-10' });
    expect(r.body).toMatchObject({ ok: false, error: 'missing_scope', needed: 'channels:manage' });
    expect(String(r.body.provided).split(',')).toContain('chat:write');
    expect(String(r.body.provided).split(',')).not.toContain('channels:manage');
    expect(api.channel('inc-10')).toBeUndefined();
  });
});

describe('messages', () => {
  const blocks = [{ type: 'header', text: { type: 'plain_text', text: 'INC-42' } }];

  it('posts with blocks and threads, and stores what users would see', async () => {
    const r = await call(api, 'chat.postMessage', { channel: '#old-archived', text: 'x' });
    expect(r.body.error).toBe('is_archived');
    await call(api, 'conversations.join', { channel: 'C0GENERAL' });
    const card = await call(api, 'chat.postMessage', { channel: 'C0GENERAL', text: 'INC-42 card', blocks });
    expect(card.body).toMatchObject({
      ok: true,
      channel: 'C0GENERAL',
      message: { text: 'INC-42 card', blocks },
    });
    expect(String(card.body.ts)).toMatch(/^\d{10}\.\d{6}$/);
    await call(api, 'chat.postMessage', { channel: 'general', text: 'reply', thread_ts: card.body.ts });
    expect(api.messages('C0GENERAL').map((m) => [m.text, m.threadTs])).toEqual([
      ['INC-42 card', undefined],
      ['reply', card.body.ts],
    ]);
    expect(api.messages('C0GENERAL')[0]?.blocks).toEqual(blocks);
  });

  it('refuses empty messages and malformed blocks', async () => {
    const id = channelOf(await call(api, 'conversations.create', { name: 'inc-11' })).id;
    expect((await call(api, 'chat.postMessage', { channel: id })).body.error).toBe('no_text');
    expect((await call(api, 'chat.postMessage', { channel: id, blocks: '[{"type":' })).body.error).toBe(
      'invalid_blocks_format',
    );
    expect((await call(api, 'chat.postMessage', { channel: id, text: 'x', blocks: [{}] })).body.error).toBe(
      'invalid_blocks',
    );
    expect((await call(api, 'chat.postMessage', { channel: 'C0NOPE', text: 'x' })).body.error).toBe(
      'channel_not_found',
    );
  });

  it('answers not_in_channel after the bot was removed, until it joins again', async () => {
    const id = String(channelOf(await call(api, 'conversations.create', { name: 'inc-12' })).id);
    api.removeBotFromChannel(id);
    expect((await call(api, 'chat.postMessage', { channel: id, text: 'x' })).body.error).toBe(
      'not_in_channel',
    );
    await call(api, 'conversations.join', { channel: id });
    expect((await call(api, 'chat.postMessage', { channel: id, text: 'x' })).body.ok).toBe(true);
  });

  it('answers channel_not_found once the channel is deleted', async () => {
    const id = String(channelOf(await call(api, 'conversations.create', { name: 'inc-13' })).id);
    api.deleteChannel(id);
    expect((await call(api, 'chat.postMessage', { channel: id, text: 'x' })).body.error).toBe(
      'channel_not_found',
    );
    expect(api.channel(id)?.deleted).toBe(true);
  });

  it('chat.update replaces text and blocks, keeps blocks when omitted, and records the edit', async () => {
    const id = String(channelOf(await call(api, 'conversations.create', { name: 'inc-14' })).id);
    const ts = (await call(api, 'chat.postMessage', { channel: id, text: 'Triggered', blocks })).body.ts;
    const newBlocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*Status:* Acknowledged' } }];
    const r = await call(api, 'chat.update', { channel: id, ts, text: 'Acknowledged', blocks: newBlocks });
    expect(r.body).toMatchObject({
      ok: true,
      channel: id,
      ts,
      text: 'Acknowledged',
      message: { blocks: newBlocks },
    });
    await call(api, 'chat.update', { channel: id, ts, text: 'Resolved' });
    const [message] = api.messages(id);
    expect(message).toMatchObject({ text: 'Resolved', blocks: newBlocks });
    expect(message?.edits.map((e) => e.text)).toEqual(['Triggered', 'Acknowledged']);
    expect(api.updates.map((u) => u.text)).toEqual(['Acknowledged', 'Resolved']);
    expect((await call(api, 'chat.update', { channel: id, ts: '1.000001', text: 'x' })).body.error).toBe(
      'message_not_found',
    );
  });

  it('opens DMs and posts into them, by DM id or by user id', async () => {
    const opened = await call(api, 'conversations.open', { users: 'U0BOB0002' });
    const dm = String(channelOf(opened).id);
    expect(dm).toMatch(/^D/);
    expect((await call(api, 'conversations.open', { users: 'U0BOB0002' })).body).toMatchObject({
      ok: true,
      already_open: true,
      channel: { id: dm },
    });
    await call(api, 'chat.postMessage', { channel: dm, text: 'You are paged for INC-42' });
    const byUser = await call(api, 'chat.postMessage', { channel: 'U0BOB0002', text: 'Still paged' });
    expect(byUser.body.channel).toBe(dm);
    expect(api.dms('U0BOB0002').map((m) => m.text)).toEqual(['You are paged for INC-42', 'Still paged']);
    expect((await call(api, 'conversations.open', { users: 'U0NOBODY' })).body.error).toBe('user_not_found');
  });

  it('posts ephemerals only to channel members', async () => {
    const id = channelOf(await call(api, 'conversations.create', { name: 'inc-15' })).id;
    await call(api, 'conversations.invite', { channel: id, users: 'U0ALICE01' });
    const r = await call(api, 'chat.postEphemeral', { channel: id, user: 'U0ALICE01', text: 'Only you' });
    expect(r.body.ok).toBe(true);
    expect(api.ephemerals).toMatchObject([{ channel: id, user: 'U0ALICE01', text: 'Only you' }]);
    const outsider = await call(api, 'chat.postEphemeral', { channel: id, user: 'U0BOB0002', text: 'x' });
    expect(outsider.body.error).toBe('user_not_in_channel');
  });
});

describe('users', () => {
  it('users.info and users.lookupByEmail (case-insensitive) answer the configured users', async () => {
    const info = await call(api, 'users.info', { user: 'U0ALICE01' });
    expect(info.body.user).toMatchObject({
      id: 'U0ALICE01',
      name: 'alice',
      real_name: 'Alice Doe',
      profile: { email: 'alice@example.com' },
    });
    const byEmail = await call(api, 'users.lookupByEmail', { email: 'Bob@Example.com' });
    expect((byEmail.body.user as { id: string }).id).toBe('U0BOB0002');
    expect((await call(api, 'users.lookupByEmail', { email: 'x@example.com' })).body.error).toBe(
      'users_not_found',
    );
    expect((await call(api, 'users.info', { user: 'U0NOBODY' })).body.error).toBe('user_not_found');
  });

  it('takes its users from the options', async () => {
    const custom = await startFakeChatApi({ users: [{ id: 'W0DANA', name: 'dana', email: 'dana@x.dev' }] });
    try {
      expect((await call(custom, 'users.lookupByEmail', { email: 'dana@x.dev' })).body.ok).toBe(true);
      expect((await call(custom, 'users.info', { user: 'U0ALICE01' })).body.error).toBe('user_not_found');
    } finally {
      await custom.close();
    }
  });
});

describe('fault knobs', () => {
  it('rate limits one method with HTTP 429, Retry-After and ratelimited, then recovers', async () => {
    api.rateLimit({ method: 'chat.postMessage', retryAfter: 3 });
    const limited = await call(api, 'chat.postMessage', { channel: 'C0GENERAL', text: 'x' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(limited.body).toEqual({ ok: false, error: 'ratelimited' });
    expect((await call(api, 'auth.test')).status).toBe(200);
    await call(api, 'conversations.join', { channel: 'C0GENERAL' });
    expect((await call(api, 'chat.postMessage', { channel: 'C0GENERAL', text: 'x' })).status).toBe(200);
  });

  it('fails a method N times with a chosen platform error', async () => {
    api.failNext('conversations.create', 'restricted_action', 2);
    expect((await call(api, 'conversations.create', { name: 'a' })).body.error).toBe('restricted_action');
    expect((await call(api, 'conversations.create', { name: 'a' })).body.error).toBe('restricted_action');
    expect((await call(api, 'conversations.create', { name: 'a' })).body.ok).toBe(true);
  });

  it('answers HTTP 500 during an outage of N requests, then recovers', async () => {
    api.outage({ requests: 2 });
    for (let i = 0; i < 2; i += 1) {
      const res = await fetch(`${api.url}auth.test`, {
        method: 'POST',
        headers: { authorization: 'Bearer x' },
      });
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toContain('text/html');
    }
    expect((await call(api, 'auth.test')).body.ok).toBe(true);
    expect(api.callsTo('auth.test').map((c) => c.status)).toEqual([500, 500, 200]);
  });

  it('drops connections while unreachable, for a duration', async () => {
    api.outage({ mode: 'close', durationMs: 300 });
    await expect(call(api, 'auth.test')).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await call(api, 'auth.test')).body.ok).toBe(true);
  });

  it('keeps an outage until endOutage()', async () => {
    api.outage({ status: 503 });
    expect((await fetch(`${api.url}auth.test`, { method: 'POST' })).status).toBe(503);
    api.endOutage();
    expect((await call(api, 'auth.test')).status).toBe(200);
  });

  it('delays answers by the configured latency', async () => {
    api.setLatency(150);
    const started = Date.now();
    await call(api, 'auth.test');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });
});

describe('rate-limit tiers', () => {
  const create = (fake: FakeChatApi, i: number) => call(fake, 'conversations.create', { name: `tier-${i}` });

  it('answers the 21st conversations.create of a minute with 429, Retry-After and ratelimited', async () => {
    for (let i = 0; i < 20; i += 1) expect((await create(api, i)).status).toBe(200);
    const limited = await create(api, 20);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ ok: false, error: 'ratelimited' });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(59);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another method has an allowance of its own.
    expect((await call(api, 'conversations.setTopic', { channel: 'C0GENERAL', topic: 't' })).status).toBe(
      200,
    );
    expect(api.rateLimitedCount('conversations.create')).toBe(1);
    expect(api.rateLimitedCounts()).toEqual({ 'conversations.create': 1 });
    expect(api.channels().filter((c) => c.name.startsWith('tier-'))).toHaveLength(20);
  });

  it('runs a scaled minute, and frees the allowance when it ends', async () => {
    const fast = await startFakeChatApi({ tierWindowMs: 1000 });
    try {
      for (let i = 0; i < 20; i += 1) await create(fast, i);
      const limited = await create(fast, 20);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('1');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect((await create(fast, 20)).status).toBe(200);
      expect(fast.rateLimitedCount()).toBe(1);
    } finally {
      await fast.close();
    }
  });

  it('paces chat.postMessage per channel: a burst, then one a second', async () => {
    const post = (channel: string) => call(api, 'chat.postMessage', { channel, text: 'x' });
    await call(api, 'conversations.join', { channel: 'C0GENERAL' });
    for (let i = 0; i < 5; i += 1) expect((await post('C0GENERAL')).status).toBe(200);
    const limited = await post('C0GENERAL');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect((await post('U0ALICE01')).status).toBe(200); // a direct message: another channel
    expect(api.rateLimitedCount('chat.postMessage')).toBe(1);
  });

  it('counts rateLimit() answers too, and they do not use up the allowance', async () => {
    api.rateLimit({ method: 'conversations.create', times: 2, retryAfter: 7 });
    expect((await create(api, 0)).headers.get('retry-after')).toBe('7');
    expect((await create(api, 0)).status).toBe(429);
    for (let i = 0; i < 20; i += 1) expect((await create(api, i)).status).toBe(200);
    expect(api.rateLimitedCount('conversations.create')).toBe(2);
  });

  it('turns the tiers off only with a reason', async () => {
    expect(() => new FakeChatApi({ tierLimitsOffBecause: ' ' })).toThrow(/reason/);
    const unlimited = await startFakeChatApi({ tierLimitsOffBecause: 'this test counts calls, not limits' });
    try {
      for (let i = 0; i < 25; i += 1) expect((await create(unlimited, i)).status).toBe(200);
      unlimited.rateLimit({ method: 'conversations.create' });
      expect((await create(unlimited, 99)).status).toBe(429);
    } finally {
      await unlimited.close();
    }
  });
});

describe('response_url hooks', () => {
  it('records what the service posts back, at most five times per URL', async () => {
    const url = api.responseUrl();
    expect(url.startsWith(`${api.origin}/hooks/commands/`)).toBe(true);
    const reply = { response_type: 'ephemeral', text: 'Incident INC-42 acknowledged' };
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(reply),
    });
    expect(res.status).toBe(200);
    expect(api.hookPostsTo(url)).toMatchObject([{ body: reply, contentType: 'application/json' }]);
    for (let i = 0; i < 4; i += 1) await fetch(url, { method: 'POST', body: '{}' });
    expect((await fetch(url, { method: 'POST', body: '{}' })).status).toBe(404);
    expect(api.hookPostsTo(url)).toHaveLength(5);
    expect(api.hookPostsTo(api.responseUrl('actions'))).toHaveLength(0);
  });
});

describe('signed inbound requests', () => {
  it("matches Slack's documented test vector", () => {
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    expect(signChatRequest('8f742231b10e8888abcd99yyyzzz85a5', body, 1531420618)).toBe(
      'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    );
  });

  it('builds the default slash command body byte for byte (our vector)', () => {
    const signed = signedSlashCommand('test-signing-secret', { text: 'ack' }, { timestamp: 1718180700 });
    expect(signed.body).toBe(slashCommandBody({ text: 'ack' }));
    expect(signed.headers).toEqual({
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': '1718180700',
      'x-slack-signature': 'v0=cb999bd090fde1eb40cc2cd59768ea34fddacd792f22f48f3cf3d82b9f9258ec',
    });
  });

  it('builds block_actions as a signed payload= form field and events as signed JSON', () => {
    const payload = blockActionsPayload({
      actionId: 'incident_acknowledge',
      value: '42',
      messageTs: '1.000200',
    });
    const action = signedBlockActions('s3cret', payload, { timestamp: 1718180700 });
    const decoded = JSON.parse(new URLSearchParams(action.body).get('payload') ?? '');
    expect(decoded).toMatchObject({
      type: 'block_actions',
      container: { message_ts: '1.000200', channel_id: 'C0INC0042' },
      actions: [{ action_id: 'incident_acknowledge', value: '42' }],
    });
    expect(action.headers['x-slack-signature']).toBe(signChatRequest('s3cret', action.body, 1718180700));

    const verification = signedEvent('s3cret', urlVerification('abc'));
    expect(JSON.parse(verification.body)).toMatchObject({ type: 'url_verification', challenge: 'abc' });
    expect(verification.headers['content-type']).toBe('application/json');
    const event = eventCallback({ type: 'member_left_channel', user: 'U0CAROL03' }, { eventId: 'Ev1' });
    expect(event).toMatchObject({ type: 'event_callback', event_id: 'Ev1', event: { user: 'U0CAROL03' } });
  });
});
