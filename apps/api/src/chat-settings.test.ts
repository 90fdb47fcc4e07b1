// Settings → Chat shows whether chat is configured and what the chat service's `auth.test` says of the
// bot token (kept a minute), never the token; admins can test it now. The chat service is a fake.
import type { Env } from '@firebreak/config';
import {
  createTestUser,
  oneUserPerRole,
  startTestApp,
  type TestRuntime,
  type TestUser,
} from '@firebreak/runtime/testing';
import {
  bodyOf,
  type FakeChatApi,
  type JsonBody,
  startFakeChatApi,
  type TestClient,
} from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

interface ChatSettingsApp {
  runtime: TestRuntime;
  fake: FakeChatApi;
  api: TestClient;
  admin: TestUser;
  get(path: string): Promise<JsonBody>;
  cleanup(): Promise<void>;
}

async function startChatSettingsApp(env: Env = {}): Promise<ChatSettingsApp> {
  const fake = await startFakeChatApi();
  const {
    runtime,
    api,
    users: { admin },
  } = await startTestApp(createApp, {
    env: {
      CHAT_BOT_TOKEN: fake.botToken,
      CHAT_SIGNING_SECRET: 'chat-settings-secret',
      CHAT_API_URL: fake.url,
      ...env,
    },
    users: { admin: oneUserPerRole.admin },
  });
  return {
    runtime,
    fake,
    api,
    admin,
    get: async (path) => bodyOf(await api('GET', path, { token: admin.token })),
    cleanup: async () => {
      await runtime.cleanup();
      await fake.close();
    },
  };
}

let s: ChatSettingsApp;
beforeAll(async () => {
  s = await startChatSettingsApp();
});
afterAll(() => s.cleanup());

const authTests = () => s.fake.callsTo('auth.test').length;
const okAnswer = { ok: true, team: 'Acme', user: 'incident-bot', bot_id: 'B0BOT0001' };

describe('chat settings', () => {
  it('shows the auth.test answer, asks the chat service at most once a minute, never shows the token', async () => {
    const before = authTests();
    const settings = await s.get('/api/v1/settings');
    expect(settings.chat).toEqual({ configured: true, signing_secret_set: true, auth_test: okAnswer });
    await s.get('/api/v1/settings');
    expect(authTests()).toBe(before + 1);
    expect(JSON.stringify(settings)).not.toContain(s.fake.botToken);
    const viewer = await createTestUser(s.runtime, 'viewer');
    const res = await s.api('GET', '/api/v1/settings', { token: viewer.token });
    expect((await bodyOf(res)).chat.auth_test).toEqual(okAnswer);
    expect(authTests()).toBe(before + 1);
  });

  it('tests the token now on POST /api/v1/settings/chat/test and shows a revoked one', async () => {
    s.fake.setTokenValid(false);
    try {
      const before = authTests();
      const res = await s.api('POST', '/api/v1/settings/chat/test', { token: s.admin.token });
      expect(res.status).toBe(200);
      expect(await bodyOf(res)).toEqual({
        configured: true,
        signing_secret_set: true,
        auth_test: { ok: false, error: 'invalid_auth' },
      });
      expect(authTests()).toBe(before + 1);
      // The fresh answer is what the view shows from now on.
      expect((await s.get('/api/v1/settings')).chat.auth_test).toEqual({ ok: false, error: 'invalid_auth' });
    } finally {
      s.fake.setTokenValid(true);
    }
    const fixed = await bodyOf(await s.api('POST', '/api/v1/settings/chat/test', { token: s.admin.token }));
    expect(fixed.auth_test).toEqual(okAnswer);
    expect(JSON.stringify(s.runtime.logs.lines)).not.toContain(s.fake.botToken);
  });

  it('says when the chat service cannot be reached', async () => {
    s.fake.outage({ status: 503 });
    try {
      const body = await bodyOf(await s.api('POST', '/api/v1/settings/chat/test', { token: s.admin.token }));
      expect(body.auth_test).toEqual({ ok: false, error: 'http_503' });
    } finally {
      s.fake.endOutage();
    }
  });

  it('lets only admins run the test', async () => {
    const member = await createTestUser(s.runtime, 'member');
    const res = await s.api('POST', '/api/v1/settings/chat/test', { token: member.token });
    expect(res.status).toBe(403);
    expect((await s.api('POST', '/api/v1/settings/chat/test')).status).toBe(401);
  });
});

describe('chat settings without a bot token', () => {
  let off: ChatSettingsApp;
  beforeAll(async () => {
    off = await startChatSettingsApp({ CHAT_BOT_TOKEN: '', CHAT_SIGNING_SECRET: '' });
  });
  afterAll(() => off.cleanup());

  it('says chat is not configured and calls nothing', async () => {
    const settings = await off.get('/api/v1/settings');
    expect(settings.chat).toEqual({ configured: false, signing_secret_set: false, auth_test: null });
    const tested = await off.api('POST', '/api/v1/settings/chat/test', { token: off.admin.token });
    expect(await bodyOf(tested)).toEqual({ configured: false, signing_secret_set: false, auth_test: null });
    expect(off.fake.calls).toEqual([]);
  });
});
