import { users } from '@firebreak/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../testing/context';
import { type ChatProfileLookup, identifyChatUser } from './identify';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.cleanup());

const never: ChatProfileLookup = async () => {
  throw new Error('lookup must not be called');
};
const profile =
  (name: string, email: string | null): ChatProfileLookup =>
  async () => ({ name, email });

describe('identifyChatUser', () => {
  it('uses the chat id first, without a lookup', async () => {
    const row = await users.insertUser(t.ctx.sql, {
      email: 'known@example.test',
      name: 'Known',
      role: 'member',
      slackUserId: 'U1KNOWN',
    });
    const identity = await identifyChatUser(t.ctx, { id: 'U1KNOWN', name: 'known' }, never);
    expect(identity.actor).toEqual({ type: 'chat', id: row.id, name: 'Known' });
  });

  it('does not move a user linked to another chat id, but acts as them', async () => {
    const row = await users.insertUser(t.ctx.sql, {
      email: 'two@example.test',
      name: 'Two Workspaces',
      role: 'member',
      slackUserId: 'U1FIRST',
    });
    const identity = await identifyChatUser(
      t.ctx,
      { id: 'U1SECOND', name: 'two' },
      profile('Two', 'two@example.test'),
    );
    expect(identity.user?.id).toBe(row.id);
    expect((await users.findUserById(t.ctx.sql, row.id))?.slack_user_id).toBe('U1FIRST');
  });

  it('leaves the user unmatched (refused by default) when the lookup fails or finds nobody', async () => {
    const failing: ChatProfileLookup = async () => {
      throw new Error('users.info: ratelimited');
    };
    expect(await identifyChatUser(t.ctx, { id: 'U1DOWN', name: 'down' }, failing)).toEqual({
      actor: { type: 'chat', name: 'down' },
      user: null,
      unmatched: { reason: 'lookup_failed', allowed: false },
    });
    expect(t.logs.lines.find((l) => l.msg === 'chat user lookup failed')).toMatchObject({
      chat_user_id: 'U1DOWN',
      err: { type: 'Error', message: 'users.info: ratelimited' },
    });
    const nobody: ChatProfileLookup = async () => null;
    expect(await identifyChatUser(t.ctx, { id: 'U1NONE', name: 'none' }, nobody)).toMatchObject({
      user: null,
      unmatched: { reason: 'no_email', allowed: false },
    });
    // An id that is not a chat user id is neither looked up nor stored.
    expect(await identifyChatUser(t.ctx, { id: 'U1>|<!channel', name: 'x' }, never)).toMatchObject({
      user: null,
      unmatched: { reason: 'invalid_id' },
    });
  });

  it('creates a member from the profile, e-mail lowercased, name falling back to the chat name', async () => {
    const identity = await identifyChatUser(
      t.ctx,
      { id: 'U1NEW', name: 'newbie' },
      profile('', 'New@Example.TEST'),
    );
    expect(identity.user).toMatchObject({
      email: 'new@example.test',
      name: 'newbie',
      role: 'member',
      auth_source: 'chat',
      password_hash: null,
      slack_user_id: 'U1NEW',
    });
    const [audit] = await t.ctx.sql`select * from audit_log where entity_id = ${identity.user!.id}`;
    expect(audit).toMatchObject({ actor_type: 'system', actor_name: 'chat', action: 'create' });
  });
});
