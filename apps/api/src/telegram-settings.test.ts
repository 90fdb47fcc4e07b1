// Settings → Telegram (docs/telegram.md#configuration): the token goes in and never comes out, the
// environment wins, the test button asks the (fake) Bot API now; and a Telegram contact method is
// offered only while a bot token is in effect.
import { loadConfig } from '@firebreak/config';
import { startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import { TelegramSettingsInput } from '@firebreak/schema';
import { bodyOf, type FakeTelegram, startFakeTelegram, type TestClient } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

const TOKEN = '777:AASETTINGS-fake_token_for_api_tests_0';
const path = '/api/v1/settings/telegram';
let fake: FakeTelegram;
let runtime: TestRuntime;
let api: TestClient;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  fake = await startFakeTelegram({ token: TOKEN, chats: ['-100123'], username: 'fb_bot' });
  ({
    runtime,
    api,
    users: { admin, member },
  } = await startTestApp(createApp, {
    users: { admin: 'admin', member: 'member' },
    env: { TELEGRAM_API_URL: fake.origin, PUBLIC_URL: 'https://firebreak.example.test' },
  }));
});
afterAll(async () => {
  await runtime.cleanup();
  await fake.close();
});

describe('Settings → Telegram', () => {
  it('starts empty, and Telegram is not offered as a contact method', async () => {
    expect(await bodyOf(await api('GET', path, { token: admin.token }))).toMatchObject({
      bot_token_set: false,
      bot_token_source: null,
      feed_chat_id: null,
      feed: { enabled: false, pending: 0, failing_reason: null },
    });
    const methods = await bodyOf(await api('GET', '/api/v1/paging/methods', { token: member.token }));
    expect(methods.methods).not.toContain('telegram');
    const add = await api('POST', '/api/v1/users/me/contact-methods', {
      token: member.token,
      body: { type: 'telegram', address: '5550100' },
    });
    expect(add.status).toBe(400);
  });

  it('refuses members and bad values, writing nothing', async () => {
    expect((await api('PUT', path, { token: member.token, body: { bot_token: TOKEN } })).status).toBe(403);
    expect((await api('GET', path, { token: member.token })).status).toBe(403);
    const bad = await api('PUT', path, {
      token: admin.token,
      body: { bot_token: 'nope', feed_chat_id: 'abc' },
    });
    expect(bad.status).toBe(400);
    expect(await bodyOf(bad)).toMatchObject({ error: { code: 'validation_failed' } });
    expect((await api('PUT', path, { token: admin.token, body: {} })).status).toBe(400);
    expect(await bodyOf(await api('GET', path, { token: admin.token }))).toMatchObject({
      bot_token_set: false,
    });
  });

  it('stores the token write-only, tests it, and then offers Telegram pages', async () => {
    const put = await api('PUT', path, {
      token: admin.token,
      body: { bot_token: TOKEN, feed_chat_id: '-100123' },
    });
    expect(put.status).toBe(200);
    const view = await bodyOf(put);
    expect(view).toMatchObject({
      bot_token_set: true,
      bot_token_source: 'settings',
      feed_chat_id: '-100123',
      feed_chat_id_source: 'settings',
      feed: { enabled: true },
    });
    expect(JSON.stringify(view)).not.toContain('AASETTINGS');
    // The audit log keeps that it changed, not the value.
    const [audit] = await runtime.ctx.sql<{ after: Record<string, unknown> }[]>`
      select after from audit_log where entity_type = 'settings' and entity_id = 'telegram'`;
    expect(audit!.after.telegram_bot_token).toBe('[redacted]');

    const test = await api('POST', `${path}/test`, { token: admin.token });
    expect(await bodyOf(test)).toEqual({ ok: true, bot_username: 'fb_bot', error: null });
    expect(fake.messagesTo('-100123').map((m) => m.text)).toEqual([
      'This is a test message from Firebreak. The incident feed will post here.',
    ]);

    const methods = await bodyOf(await api('GET', '/api/v1/paging/methods', { token: member.token }));
    expect(methods.methods).toContain('telegram');
    const add = await api('POST', '/api/v1/users/me/contact-methods', {
      token: member.token,
      body: { type: 'telegram', address: ' -100555 ' },
    });
    expect(add.status).toBe(201);
    expect(await bodyOf(add)).toMatchObject({ type: 'telegram', address: '-100555', verified: false });
    const notId = await api('POST', '/api/v1/users/me/contact-methods', {
      token: member.token,
      body: { type: 'telegram', address: '@someone' },
    });
    expect(notId.status).toBe(400);
  });

  it('answers what Telegram refused when the test fails', async () => {
    await api('PUT', path, { token: admin.token, body: { feed_chat_id: '-100999' } });
    expect(await bodyOf(await api('POST', `${path}/test`, { token: admin.token }))).toEqual({
      ok: false,
      bot_username: 'fb_bot',
      error: 'Bad Request: chat not found',
    });
  });
});

describe('Settings → Telegram under TELEGRAM_* in the environment', () => {
  it('shows the environment as the source and refuses to change it (409)', async () => {
    const pinned = await startTestApp(createApp, {
      users: { admin: 'admin' },
      env: {
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_CHAT_ID: '-100123',
        TELEGRAM_API_URL: fake.origin,
        PUBLIC_URL: 'https://firebreak.example.test',
      },
    });
    try {
      const token = pinned.users.admin.token;
      const res = await pinned.api('PUT', path, { token, body: { bot_token: `${TOKEN}x` } });
      expect(res.status).toBe(409);
      expect(await bodyOf(await pinned.api('GET', path, { token }))).toMatchObject({
        bot_token_set: true,
        bot_token_source: 'env',
        feed_chat_id: '-100123',
        feed_chat_id_source: 'env',
      });
    } finally {
      await pinned.runtime.cleanup();
    }
  });
});

describe('Settings → Telegram without PUBLIC_URL', () => {
  it('refuses to save a token (409, nothing written): its links would point at localhost', async () => {
    const bare = await startTestApp(createApp, {
      users: { admin: 'admin' },
      env: { TELEGRAM_API_URL: fake.origin },
    });
    try {
      const token = bare.users.admin.token;
      const res = await bare.api('PUT', path, { token, body: { bot_token: TOKEN, feed_chat_id: '-100123' } });
      expect(res.status).toBe(409);
      expect(await bodyOf(res)).toMatchObject({
        error: { code: 'conflict', message: expect.stringContaining('PUBLIC_URL') },
      });
      expect(await bodyOf(await bare.api('GET', path, { token }))).toMatchObject({
        bot_token_set: false,
        feed_chat_id: null,
      });
      // Removing a token, or setting the chat alone, needs no link.
      expect((await bare.api('PUT', path, { token, body: { feed_chat_id: '-100123' } })).status).toBe(200);
      expect((await bare.api('PUT', path, { token, body: { bot_token: null } })).status).toBe(200);
    } finally {
      await bare.runtime.cleanup();
    }
  });
});

describe('the token and chat id rules', () => {
  // Settings → Telegram (the schema) and TELEGRAM_* (the configuration) must refuse the same values: a
  // token the environment took but Settings refused, or the reverse, would be a second, weaker door.
  const tokens = [
    TOKEN,
    `${TOKEN}/../getUpdates`,
    '1:secret',
    'abc:AASETTINGS-fake_token_for_api_tests_0',
    '',
  ];
  const chats = ['-100123', '5550100', '0', '-0123', '@someone', '12a'];
  const configTakes = (env: Record<string, string>) => {
    try {
      loadConfig({ ...env, PUBLIC_URL: 'https://f.test' });
      return true;
    } catch {
      return false;
    }
  };

  it('are the same for the environment and for Settings', () => {
    for (const token of tokens.filter(Boolean)) {
      expect([token, configTakes({ TELEGRAM_BOT_TOKEN: token })]).toEqual([
        token,
        TelegramSettingsInput.safeParse({ bot_token: token }).success,
      ]);
    }
    for (const chat of chats) {
      expect([chat, configTakes({ TELEGRAM_CHAT_ID: chat })]).toEqual([
        chat,
        TelegramSettingsInput.safeParse({ feed_chat_id: chat }).success,
      ]);
    }
    expect(TelegramSettingsInput.safeParse({ bot_token: `${TOKEN}/x` }).success).toBe(false);
  });
});
