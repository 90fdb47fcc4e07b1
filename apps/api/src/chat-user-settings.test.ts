// Settings for chat users (docs/integrations/slack.md#users): the role of users created from chat, and
// whether unmatched chat users may act. Admin only; never admin as the default role.
import { oneUserPerRole, startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import { bodyOf, type TestClient } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

let runtime: TestRuntime;
let api: TestClient;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  ({
    runtime,
    api,
    users: { admin, member },
  } = await startTestApp(createApp, { users: oneUserPerRole }));
});
afterAll(() => runtime.cleanup());

const settings = async () => bodyOf(await api('GET', '/api/v1/settings', { token: admin.token }));
const patch = (body: unknown, token = admin.token) => api('PATCH', '/api/v1/settings', { token, body });

describe('chat user settings', () => {
  it('default to member and refusing unmatched users', async () => {
    expect(await settings()).toMatchObject({
      chat_user_default_role: 'member',
      chat_allow_unmatched_users: false,
    });
  });

  it('are changed by admins, and shown', async () => {
    const res = await patch({ chat_user_default_role: 'viewer', chat_allow_unmatched_users: true });
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toMatchObject({
      chat_user_default_role: 'viewer',
      chat_allow_unmatched_users: true,
    });
    expect((await patch({ chat_user_default_role: 'member' }, member.token)).status).toBe(403);
  });

  it('refuses admin as the default role, and anything but a boolean, changing nothing', async () => {
    const before = await settings();
    for (const body of [{ chat_user_default_role: 'admin' }, { chat_allow_unmatched_users: 'yes' }]) {
      const res = await patch(body);
      expect(res.status).toBe(400);
      expect((await bodyOf(res)).error.code).toBe('validation_failed');
    }
    expect(await settings()).toEqual(before);
  });
});
