import { createTestUser, startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import { bodyOf } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

let runtime: TestRuntime;
let app: ReturnType<typeof createApp>;
let admin: TestUser;
let member: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  ({
    runtime,
    app,
    users: { admin, member, viewer },
  } = await startTestApp(createApp, { users: { admin: 'admin', member: 'member', viewer: 'viewer' } }));
});
afterAll(() => runtime.cleanup());

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('login', () => {
  it('answers a token, the user and an HttpOnly session cookie', async () => {
    const res = await app.request(
      '/api/v1/auth/login',
      json({ email: member.email, password: member.password }),
    );
    expect(res.status).toBe(200);
    const body = await bodyOf(res);
    expect(body.token).toMatch(/^fbs_/);
    expect(body.user).toMatchObject({
      id: member.id,
      email: member.email,
      role: 'member',
      auth_source: 'local',
    });
    expect(body.user).not.toHaveProperty('password_hash');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toContain(`firebreak_session=${body.token}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);

    const me = await app.request('/api/v1/auth/me', {
      headers: { cookie: `firebreak_session=${body.token}` },
    });
    expect(me.status).toBe(200);
    expect(await bodyOf(me)).toMatchObject({ kind: 'session', role: 'member', user: { id: member.id } });
  });

  it('matches the e-mail regardless of case', async () => {
    const res = await app.request(
      '/api/v1/auth/login',
      json({ email: member.email.toUpperCase(), password: member.password }),
    );
    expect(res.status).toBe(200);
  });

  it('refuses a wrong password and an unknown e-mail with the same 401', async () => {
    const wrong = await app.request('/api/v1/auth/login', json({ email: member.email, password: 'nope' }));
    const unknown = await app.request(
      '/api/v1/auth/login',
      json({ email: 'ghost@example.test', password: 'nope' }),
    );
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      const body = await bodyOf(res);
      expect(body.error).toMatchObject({ code: 'unauthorized', message: 'E-mail or password is wrong.' });
      expect(body.error.request_id).toBe(res.headers.get('x-request-id'));
    }
  });

  it('refuses a deactivated user', async () => {
    const user = await createTestUser(runtime, 'member');
    await runtime.sql`update users set active = false where id = ${user.id}`;
    const res = await app.request('/api/v1/auth/login', json({ email: user.email, password: user.password }));
    expect(res.status).toBe(401);
    const me = await app.request('/api/v1/auth/me', { headers: bearer(user.token) });
    expect(me.status).toBe(401);
  });

  it('validates the body: 415, invalid_json and validation_failed with paths', async () => {
    const text = await app.request('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(text.status).toBe(415);
    expect((await bodyOf(text)).error.code).toBe('unsupported_media_type');

    const broken = await app.request('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email": ',
    });
    expect(broken.status).toBe(400);
    expect((await bodyOf(broken)).error.code).toBe('invalid_json');

    const invalid = await app.request('/api/v1/auth/login', json({ email: '', password: 42 }));
    expect(invalid.status).toBe(400);
    const body = await bodyOf(invalid);
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['email', 'password']);
  });

  it('refuses bodies over 256 KiB with 413', async () => {
    const res = await app.request(
      '/api/v1/auth/login',
      json({ email: 'a@b.c', password: 'x'.repeat(300 * 1024) }),
    );
    expect(res.status).toBe(413);
    expect((await bodyOf(res)).error.code).toBe('payload_too_large');
  });
});

describe('logout', () => {
  it('ends the session: the token stops working', async () => {
    const user = await createTestUser(runtime, 'viewer');
    const out = await app.request('/api/v1/auth/logout', { method: 'POST', headers: bearer(user.token) });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/firebreak_session=;/);
    const me = await app.request('/api/v1/auth/me', { headers: bearer(user.token) });
    expect(me.status).toBe(401);
  });
});

describe('authentication and roles', () => {
  it('answers 401 without a token, with a malformed header and with an unknown token', async () => {
    for (const headers of [
      {},
      { authorization: 'Basic abc' },
      bearer('fbs_not-a-real-token'),
      bearer('junk'),
    ]) {
      const res = await app.request('/api/v1/auth/me', { headers });
      expect(res.status).toBe(401);
      expect((await bodyOf(res)).error.code).toBe('unauthorized');
    }
  });

  it('answers 401 for an expired session', async () => {
    const user = await createTestUser(runtime, 'viewer');
    await runtime.sql`update sessions set expires_at = now() - interval '1 second' where user_id = ${user.id}`;
    expect((await app.request('/api/v1/auth/me', { headers: bearer(user.token) })).status).toBe(401);
  });

  it('lets only admins manage API keys (403 for member and viewer)', async () => {
    for (const user of [member, viewer]) {
      const create = await app.request('/api/v1/api-keys', json({ name: 'x' }, bearer(user.token)));
      expect(create.status).toBe(403);
      expect((await bodyOf(create)).error.code).toBe('forbidden');
      expect((await app.request('/api/v1/api-keys', { headers: bearer(user.token) })).status).toBe(403);
    }
  });
});

describe('API keys', () => {
  it('are shown once, stored hashed, listed without the token, usable, and revocable', async () => {
    const create = await app.request(
      '/api/v1/api-keys',
      json({ name: 'bulk resolver' }, bearer(admin.token)),
    );
    expect(create.status).toBe(201);
    const key = await bodyOf(create);
    expect(key).toMatchObject({ name: 'bulk resolver', role: 'member', last_used_at: null });
    expect(key.token).toMatch(/^fbk_[A-Za-z0-9_-]{43}$/);

    const [stored] = await runtime.sql<
      { token_hash: Buffer }[]
    >`select token_hash from api_keys where id = ${key.id}`;
    expect(stored!.token_hash.toString('hex')).not.toContain(Buffer.from(key.token).toString('hex'));
    expect(stored!.token_hash.length).toBe(32);

    const me = await app.request('/api/v1/auth/me', { headers: bearer(key.token) });
    expect(me.status).toBe(200);
    expect(await bodyOf(me)).toMatchObject({ kind: 'api_key', role: 'member', user: { id: admin.id } });

    const list = await app.request('/api/v1/api-keys', { headers: bearer(admin.token) });
    const listed = (await bodyOf(list)).api_keys.find((k: { id: string }) => k.id === key.id);
    expect(listed).toMatchObject({ id: key.id, name: 'bulk resolver', role: 'member' });
    expect(listed.last_used_at).not.toBeNull();
    expect(listed).not.toHaveProperty('token');

    const revoke = await app.request(`/api/v1/api-keys/${key.id}`, {
      method: 'DELETE',
      headers: bearer(admin.token),
    });
    expect(revoke.status).toBe(204);
    expect((await app.request('/api/v1/auth/me', { headers: bearer(key.token) })).status).toBe(401);
    const again = await app.request(`/api/v1/api-keys/${key.id}`, {
      method: 'DELETE',
      headers: bearer(admin.token),
    });
    expect(again.status).toBe(404);
  });

  it('stop working when the person who made them is deactivated', async () => {
    const departing = await createTestUser(runtime, 'admin');
    const key = await bodyOf(
      await app.request('/api/v1/api-keys', json({ name: 'leaver', role: 'admin' }, bearer(departing.token))),
    );
    expect((await app.request('/api/v1/auth/me', { headers: bearer(key.token) })).status).toBe(200);
    await runtime.sql`update users set active = false where id = ${departing.id}`;
    expect((await app.request('/api/v1/auth/me', { headers: bearer(key.token) })).status).toBe(401);
  });

  it('carry the role they were given: a viewer key cannot manage keys', async () => {
    const create = await app.request(
      '/api/v1/api-keys',
      json({ name: 'ro', role: 'viewer' }, bearer(admin.token)),
    );
    const key = await bodyOf(create);
    expect(key.role).toBe('viewer');
    expect((await app.request('/api/v1/api-keys', { headers: bearer(key.token) })).status).toBe(403);
  });

  it('validate their input', async () => {
    const res = await app.request(
      '/api/v1/api-keys',
      json({ name: ' ', role: 'owner' }, bearer(admin.token)),
    );
    expect(res.status).toBe(400);
    const details = (await bodyOf(res)).error.details.map((d: { path: string }) => d.path).sort();
    expect(details).toEqual(['name', 'role']);
  });
});

describe('errors', () => {
  it('answers unknown routes with the 404 envelope', async () => {
    const res = await app.request('/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect((await bodyOf(res)).error).toMatchObject({ code: 'not_found' });
  });
});
