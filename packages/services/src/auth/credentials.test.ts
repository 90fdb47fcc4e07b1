// Credentials after a security review: API keys act for their creator, sessions end on deactivation
// and when idle, password guessing backs off per account, and setup tokens are checked before hashing.
import { apiKeys, setupTokens, users } from '@firebreak/db';
import type { Role } from '@firebreak/schema';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupPassword } from '../import/setup-password';
import { issueSetupTokens } from '../import/setup-tokens';
import { deleteUser } from '../oncall/delete-user';
import { updateUser } from '../oncall/update-user';
import { createTestContext, type TestContext } from '../testing/context';
import { createApiKey, listApiKeys } from './api-keys';
import { authenticate } from './authenticate';
import { login } from './login';
import { hashPassword } from './passwords';
import type { Principal } from './principal';

// The real hash, watched: the setup-token test asserts it is never run for a made-up token.
vi.mock('./passwords', async (importOriginal) => {
  const real = await importOriginal<typeof import('./passwords')>();
  return { ...real, hashPassword: vi.fn(real.hashPassword) };
});

let t: TestContext;
let clock: Date;
beforeEach(async () => {
  t = await createTestContext();
  clock = new Date('2026-11-24T08:00:00.000Z');
  t.ctx.now = () => clock;
});
afterEach(() => t.cleanup());

const minutes = (n: number) => n * 60_000;
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

let counter = 0;
async function makeUser(role: Role, password = 'a-long-password') {
  counter += 1;
  const email = `user-${counter}@example.test`;
  const row = await users.insertUser(t.ctx.sql, {
    email,
    name: `User ${counter}`,
    role,
    passwordHash: await hashPassword(password),
  });
  return { ...row, password };
}

async function sessionOf(user: { email: string; password: string }): Promise<string> {
  return (await login(t.ctx, { email: user.email, password: user.password })).token;
}

async function keyMadeBy(user: { email: string; password: string }, role: Role): Promise<string> {
  const principal = (await authenticate(t.ctx, await sessionOf(user))) as Principal;
  return (await createApiKey(t.ctx, principal, { name: `key ${role}`, role })).token;
}

describe('API keys act for their creator', () => {
  it('stop working when the creator is deleted, through the service or behind its back', async () => {
    await makeUser('admin'); // so that the others are not the last admin
    const leaver = await makeUser('admin');
    const key = await keyMadeBy(leaver, 'member');
    expect((await authenticate(t.ctx, key))?.role).toBe('member');
    await deleteUser(t.ctx, leaver.id);
    expect(await authenticate(t.ctx, key)).toBeUndefined();
    const [row] = await t.ctx.sql`select revoked_at from api_keys where created_by is null`;
    expect(row?.revoked_at).toEqual(clock);

    // A deletion that skipped the service leaves the key without a creator: still refused.
    const other = await makeUser('admin');
    const otherKey = await keyMadeBy(other, 'viewer');
    await t.ctx.sql`delete from users where id = ${other.id}`;
    expect(await authenticate(t.ctx, otherKey)).toBeUndefined();
  });

  it('never act above the creator’s current role, and follow it back up', async () => {
    await makeUser('admin');
    const admin = await makeUser('admin');
    const key = await keyMadeBy(admin, 'admin');
    expect((await authenticate(t.ctx, key))?.role).toBe('admin');
    await updateUser(t.ctx, admin.id, { role: 'member' });
    expect((await authenticate(t.ctx, key))?.role).toBe('member');
    await updateUser(t.ctx, admin.id, { role: 'viewer' });
    expect((await authenticate(t.ctx, key))?.role).toBe('viewer');
    await updateUser(t.ctx, admin.id, { role: 'admin' });
    expect((await authenticate(t.ctx, key))?.role).toBe('admin');
  });

  it('keep their own role when it is the lower one', async () => {
    const admin = await makeUser('admin');
    expect((await authenticate(t.ctx, await keyMadeBy(admin, 'viewer')))?.role).toBe('viewer');
  });

  it('are listed with their creator as the creator is now', async () => {
    const admin = await makeUser('admin');
    await makeUser('admin');
    await keyMadeBy(admin, 'member');
    await updateUser(t.ctx, admin.id, { active: false });
    const [listed] = await listApiKeys(t.ctx);
    expect(listed?.created_by).toEqual({
      id: admin.id,
      name: admin.name,
      email: admin.email,
      role: 'admin',
      active: false,
    });
  });

  it('cannot be made without a user behind the request', async () => {
    const principal: Principal = { kind: 'api_key', role: 'admin', user: null };
    await expect(createApiKey(t.ctx, principal, { name: 'orphan' })).rejects.toMatchObject({
      code: 'forbidden',
    });
    expect(await apiKeys.listActiveApiKeys(t.ctx.sql)).toEqual([]);
  });
});

describe('sessions', () => {
  it('end when the user is deactivated, and reactivation does not bring them back', async () => {
    await makeUser('admin');
    const user = await makeUser('member');
    const token = await sessionOf(user);
    await updateUser(t.ctx, user.id, { active: false });
    await updateUser(t.ctx, user.id, { active: true });
    expect(await authenticate(t.ctx, token)).toBeUndefined();
    const left = await t.ctx.sql`select 1 from sessions where user_id = ${user.id}`;
    expect(left).toHaveLength(0);
  });

  it('follow a role change at the next request without ending', async () => {
    await makeUser('admin');
    const user = await makeUser('admin');
    const token = await sessionOf(user);
    await updateUser(t.ctx, user.id, { role: 'viewer' });
    expect((await authenticate(t.ctx, token))?.role).toBe('viewer');
  });

  it('end after the idle timeout; each use pushes it on, written at most once a minute', async () => {
    const user = await makeUser('viewer');
    const token = await sessionOf(user);
    const idle = t.ctx.sessionIdleTimeoutMs;
    const lastUsed = async () =>
      (await t.ctx.sql`select last_used_at from sessions where user_id = ${user.id}`)[0]?.last_used_at;

    advance(30_000);
    expect(await authenticate(t.ctx, token)).toBeDefined();
    expect(await lastUsed()).toEqual(new Date('2026-11-24T08:00:00.000Z')); // not written: under a minute

    advance(idle - minutes(1));
    expect(await authenticate(t.ctx, token)).toBeDefined(); // within the timeout: used, and written
    expect(await lastUsed()).toEqual(clock);

    advance(idle - 1000);
    expect(await authenticate(t.ctx, token)).toBeDefined(); // the use above pushed the deadline on
    advance(idle + 1000);
    expect(await authenticate(t.ctx, token)).toBeUndefined();
  });
});

const attemptFrom = (email: string, password: string, address: string) =>
  login(t.ctx, { email, password }, address).then(
    () => 'ok',
    (error: { code: string }) => error.code,
  );

describe('login backoff', () => {
  const attempt = (email: string, password: string) =>
    login(t.ctx, { email, password }).then(
      () => 'ok',
      (error: { code: string; details?: { retry_after_seconds?: number } }) =>
        error.code === 'rate_limited' ? `429 after ${error.details?.retry_after_seconds}` : error.code,
    );

  it('refuses an account for a doubling delay after five failures, even the right password', async () => {
    const user = await makeUser('member');
    for (let i = 0; i < 5; i++) expect(await attempt(user.email, 'wrong')).toBe('unauthorized');
    expect(await attempt(user.email, user.password)).toBe('429 after 30');
    advance(30_000);
    expect(await attempt(user.email.toUpperCase(), 'wrong')).toBe('unauthorized');
    expect(await attempt(user.email, user.password)).toBe('429 after 60');
    advance(60_000);
    expect(await attempt(user.email, user.password)).toBe('ok');
    // A success starts the count again: five free failures once more.
    for (let i = 0; i < 4; i++) expect(await attempt(user.email, 'wrong')).toBe('unauthorized');
    expect(await attempt(user.email, user.password)).toBe('ok');
  });

  it('treats an unknown address exactly like a known one', async () => {
    for (let i = 0; i < 5; i++) expect(await attempt('ghost@example.test', 'x')).toBe('unauthorized');
    expect(await attempt('ghost@example.test', 'x')).toBe('429 after 30');
  });

  it('lets a concurrent burst from one client past no more than the free attempts', async () => {
    const user = await makeUser('member');
    const burst = await Promise.all(
      Array.from({ length: 20 }, () =>
        login(t.ctx, { email: user.email, password: 'wrong' }, '203.0.113.7').then(
          () => 'ok',
          (error: { code: string }) => error.code,
        ),
      ),
    );
    // Only the five counted attempts reached the password check; the rest were refused before it.
    expect(burst.filter((answer) => answer === 'unauthorized')).toHaveLength(5);
    expect(burst.filter((answer) => answer === 'rate_limited')).toHaveLength(15);
  });

  it('locks out the client that failed, not the same account from another address', async () => {
    const user = await makeUser('admin');
    const from = (address: string, password: string) =>
      login(t.ctx, { email: user.email, password }, address).then(
        () => 'ok',
        (error: { code: string }) => error.code,
      );
    for (let i = 0; i < 5; i++) expect(await from('198.51.100.1', 'wrong')).toBe('unauthorized');
    expect(await from('198.51.100.1', user.password)).toBe('rate_limited');
    expect(await from('198.51.100.2', user.password)).toBe('ok');
  });

  it('bounds guessing from many addresses with a per-account ceiling', async () => {
    const user = await makeUser('member');
    for (let i = 0; i < 100; i++) {
      expect(await attemptFrom(user.email, 'wrong', `10.0.${Math.floor(i / 4)}.${i % 4}`)).toBe(
        'unauthorized',
      );
    }
    expect(await attemptFrom(user.email, user.password, '10.9.9.9')).toBe('rate_limited');
  });

  it('keeps no address in clear', async () => {
    await attempt('typed-a-password-here@example.test', 'x');
    const rows = await t.ctx.sql`select * from login_failures`;
    expect(JSON.stringify(rows)).not.toContain('typed-a-password');
  });
});

describe('setup tokens', () => {
  it('are checked before the new password is hashed', async () => {
    const hashed = vi.mocked(hashPassword);
    hashed.mockClear();
    await expect(
      setupPassword(t.ctx, { token: 'fbp_made-up', password: 'a-new-password' }),
    ).rejects.toMatchObject({ code: 'unauthorized' });
    expect(hashed).not.toHaveBeenCalled();

    const user = await users.insertUser(t.ctx.sql, {
      email: 'new@example.test',
      name: 'New',
      role: 'member',
    });
    const tokens = await issueSetupTokens(t.ctx.sql, [user], clock);
    hashed.mockClear();
    await setupPassword(t.ctx, { token: tokens.get(user.email)!, password: 'a-new-password' });
    expect(hashed).toHaveBeenCalledTimes(1);
    expect(await setupTokens.isUsableSetupToken(t.ctx.sql, Buffer.alloc(32), clock)).toBe(false);
    expect(await login(t.ctx, { email: user.email, password: 'a-new-password' })).toBeDefined();

    // Recorded as the user's own change, the password only as redacted.
    const [audit] = await t.ctx.sql`select * from audit_log where entity_id = ${user.id}`;
    expect(audit).toMatchObject({ actor_type: 'user', actor_id: user.id, action: 'update' });
    expect(audit!.after).toMatchObject({ password: '[redacted]' });
    expect(JSON.stringify(audit)).not.toContain('a-new-password');
  });
});
