import { schedules, users } from '@firebreak/db';
import {
  createTestUser,
  oneUserPerRole,
  startTestApp,
  type TestRuntime,
  type TestUser,
} from '@firebreak/runtime/testing';
import { authenticate, login, updateUser } from '@firebreak/services';
import { bodyOf, type TestClient } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

let runtime: TestRuntime;
let api: TestClient;
let admin: TestUser;
let member: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  ({
    runtime,
    api,
    users: { admin, member, viewer },
  } = await startTestApp(createApp, { users: oneUserPerRole }));
});
afterAll(() => runtime.cleanup());

const create = (body: unknown, token = admin.token) => api('POST', '/api/v1/users', { token, body });
let counter = 0;
async function newUser(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const res = await create({
    email: `person${counter}@example.com`,
    name: `Person ${counter}`,
    role: 'member',
    ...overrides,
  });
  expect(res.status).toBe(201);
  return bodyOf(res);
}

describe('POST /api/v1/users', () => {
  it('creates a local user with all its fields, e-mail lowercased, no password hash shown', async () => {
    const res = await create({
      email: '  Grace.Hopper@Example.COM ',
      name: 'Grace Hopper',
      role: 'member',
      slack_user_id: 'U0GRACE',
      teams_user_id: '6B1F3E2A-0C4D-4E5F-8A9B-1C2D3E4F5A6B',
      password: 'cobol-rules-1959',
    });
    expect(res.status).toBe(201);
    const user = await bodyOf(res);
    expect(user).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'grace.hopper@example.com',
      name: 'Grace Hopper',
      role: 'member',
      slack_user_id: 'U0GRACE',
      teams_user_id: '6b1f3e2a-0c4d-4e5f-8a9b-1c2d3e4f5a6b',
      auth_source: 'local',
      active: true,
      shift_notices: true,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const session = await login(runtime.ctx, {
      email: 'grace.hopper@example.com',
      password: 'cobol-rules-1959',
    });
    expect(session.user.id).toBe(user.id);
    const [row] = await runtime.sql`select password_hash from users where id = ${user.id}`;
    expect(row!.password_hash).toMatch(/^scrypt\$/);
  });

  it('creates a user without a password, who cannot log in', async () => {
    const user = await newUser({ email: 'paged-only@example.com' });
    expect(user.slack_user_id).toBeNull();
    await expect(
      login(runtime.ctx, { email: 'paged-only@example.com', password: 'anything-at-all' }),
    ).rejects.toThrow();
  });

  it('answers 409 conflict for an e-mail or slack_user_id already taken, whatever the case', async () => {
    await newUser({ email: 'taken@example.com', slack_user_id: 'U0TAKEN' });
    const sameEmail = await create({ email: 'TAKEN@example.com', name: 'Other', role: 'viewer' });
    expect(sameEmail.status).toBe(409);
    expect((await bodyOf(sameEmail)).error).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('e-mail'),
    });
    const sameSlack = await create({
      email: 'other@example.com',
      name: 'Other',
      role: 'viewer',
      slack_user_id: 'U0TAKEN',
    });
    expect(sameSlack.status).toBe(409);
    await newUser({
      email: 'teams-taken@example.com',
      teams_user_id: '0c4d4e5f-8a9b-4c2d-9e4f-5a6b1f3e2a00',
    });
    const sameTeams = await create({
      email: 'other-teams@example.com',
      name: 'Other',
      role: 'viewer',
      teams_user_id: '0C4D4E5F-8A9B-4C2D-9E4F-5A6B1F3E2A00',
    });
    expect(sameTeams.status).toBe(409);
    expect((await bodyOf(sameTeams)).error.message).toContain('teams_user_id');
    const notAnId = await create({ email: 'x@example.com', name: 'X', role: 'viewer', teams_user_id: 'x@y' });
    expect((await bodyOf(notAnId)).error.details).toEqual([
      { path: 'teams_user_id', message: 'must be a Microsoft Entra object id (a GUID)' },
    ]);
  });

  it('answers 400 with the path of each problem', async () => {
    const res = await create({ email: 'not-an-email', name: '', role: 'boss', password: 'short' });
    expect(res.status).toBe(400);
    const { error } = await bodyOf(res);
    expect(error.code).toBe('validation_failed');
    expect(error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'email',
      'name',
      'password',
      'role',
    ]);
  });

  it('is for admins only', async () => {
    expect((await create({ email: 'x@example.com', name: 'X', role: 'viewer' }, member.token)).status).toBe(
      403,
    );
    expect((await create({ email: 'x@example.com', name: 'X', role: 'viewer' }, viewer.token)).status).toBe(
      403,
    );
    expect((await api('POST', '/api/v1/users', { body: {} })).status).toBe(401);
  });
});

describe('GET /api/v1/users', () => {
  it('lists users by name for every role, without password hashes', async () => {
    for (const token of [viewer.token, member.token, admin.token]) {
      const res = await api('GET', '/api/v1/users', { token });
      expect(res.status).toBe(200);
      const body = await bodyOf(res);
      const names: string[] = body.users.map((u: { name: string }) => u.name);
      expect(names).toEqual(expect.arrayContaining(['Ada Admin', 'Mia Member', 'Vic Viewer']));
      expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
      expect(JSON.stringify(body)).not.toContain('password');
    }
  });

  it('reads one user; an unknown or malformed id is 404', async () => {
    const res = await api('GET', `/api/v1/users/${member.id}`, { token: viewer.token });
    expect(await bodyOf(res)).toMatchObject({ id: member.id, name: 'Mia Member', role: 'member' });
    expect(
      (await api('GET', '/api/v1/users/00000000-0000-4000-8000-000000000000', { token: viewer.token }))
        .status,
    ).toBe(404);
    expect((await api('GET', '/api/v1/users/42', { token: viewer.token })).status).toBe(404);
  });
});

describe('PATCH /api/v1/users/{id}', () => {
  it('changes the fields given', async () => {
    const user = await newUser({ slack_user_id: 'U0PATCH' });
    const res = await api('PATCH', `/api/v1/users/${user.id}`, {
      token: admin.token,
      body: { name: 'Renamed', role: 'viewer', slack_user_id: null, active: false },
    });
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toMatchObject({
      id: user.id,
      name: 'Renamed',
      role: 'viewer',
      slack_user_id: null,
      active: false,
    });
  });

  it('a new password works at once and ends the sessions opened with the old one', async () => {
    const someone = await createTestUser(runtime, 'member');
    const res = await api('PATCH', `/api/v1/users/${someone.id}`, {
      token: admin.token,
      body: { password: 'a-brand-new-one' },
    });
    expect(res.status).toBe(200);
    expect(await authenticate(runtime.ctx, someone.token)).toBeUndefined();
    await expect(
      login(runtime.ctx, { email: someone.email, password: 'a-brand-new-one' }),
    ).resolves.toBeDefined();
  });

  it('refuses an empty change, an e-mail taken, a member, and an unknown user', async () => {
    const user = await newUser();
    expect((await api('PATCH', `/api/v1/users/${user.id}`, { token: admin.token, body: {} })).status).toBe(
      400,
    );
    const taken = await api('PATCH', `/api/v1/users/${user.id}`, {
      token: admin.token,
      body: { email: member.email },
    });
    expect(taken.status).toBe(409);
    expect(
      (await api('PATCH', `/api/v1/users/${user.id}`, { token: member.token, body: { name: 'x' } })).status,
    ).toBe(403);
    const unknown = await api('PATCH', '/api/v1/users/00000000-0000-4000-8000-000000000000', {
      token: admin.token,
      body: { name: 'x' },
    });
    expect(unknown.status).toBe(404);
  });
});

describe('the last active admin', () => {
  it('cannot be demoted, deactivated or deleted; once there is another admin, can', async () => {
    const { runtime: runtime2, api: api2 } = await startTestApp(createApp);
    try {
      const only = await createTestUser(runtime2, 'admin');
      for (const body of [{ role: 'member' }, { active: false }]) {
        const res = await api2('PATCH', `/api/v1/users/${only.id}`, { token: only.token, body });
        expect(res.status).toBe(409);
        expect((await bodyOf(res)).error.message).toContain('last active admin');
      }
      expect((await api2('DELETE', `/api/v1/users/${only.id}`, { token: only.token })).status).toBe(409);
      const second = await createTestUser(runtime2, 'admin');
      expect(
        (await api2('PATCH', `/api/v1/users/${only.id}`, { token: second.token, body: { role: 'viewer' } }))
          .status,
      ).toBe(200);
      expect((await api2('DELETE', `/api/v1/users/${second.id}`, { token: second.token })).status).toBe(409);
      // Two admins demoting each other at once (past the role check). Both requests are held at the
      // database until both wait there, then let go together: one of them must stay admin.
      const third = await createTestUser(runtime2, 'admin');
      const results = await runtime2.sql.begin(async (tx) => {
        await tx`select id from users where id in (${second.id}, ${third.id}) for update`;
        const racing = Promise.allSettled([
          updateUser(runtime2.ctx, second.id, { role: 'member' }),
          updateUser(runtime2.ctx, third.id, { role: 'member' }),
        ]);
        await waitForLockWaiters(runtime2, 2);
        return { racing };
      });
      const outcomes = (await results.racing).map((r) => (r.status === 'fulfilled' ? 'ok' : r.reason.code));
      expect(outcomes.sort()).toEqual(['conflict', 'ok']);
    } finally {
      await runtime2.cleanup();
    }
  });
});

describe('DELETE /api/v1/users/{id}', () => {
  it('deletes the user; rotations keep their name without the account', async () => {
    const user = await newUser({ name: 'Leaving Soon' });
    const schedule = await schedules.insertSchedule(runtime.sql, {
      name: 'Keep names',
      timezone: 'UTC',
      at: new Date(),
    });
    await schedules.replaceLayers(runtime.sql, schedule.id, [
      {
        name: 'Layer',
        orderIndex: 0,
        rotationStart: new Date('2026-01-01T00:00:00Z'),
        shiftDurationSeconds: 86_400,
        rotationType: 'daily',
        participants: [{ userId: user.id, name: 'Old display name' }],
      },
    ]);
    expect((await schedules.findSchedule(runtime.sql, schedule.id))!.layers[0]!.participants).toEqual([
      { user_id: user.id, name: 'Leaving Soon' },
    ]);
    expect((await api('DELETE', `/api/v1/users/${user.id}`, { token: admin.token })).status).toBe(204);
    expect((await api('GET', `/api/v1/users/${user.id}`, { token: admin.token })).status).toBe(404);
    expect(await users.findUserById(runtime.sql, user.id)).toBeUndefined();
    expect((await schedules.findSchedule(runtime.sql, schedule.id))!.layers[0]!.participants).toEqual([
      { user_id: null, name: 'Leaving Soon' },
    ]);
    expect((await api('DELETE', `/api/v1/users/${user.id}`, { token: admin.token })).status).toBe(404);
  });

  it('is for admins only', async () => {
    const user = await newUser();
    expect((await api('DELETE', `/api/v1/users/${user.id}`, { token: member.token })).status).toBe(403);
  });
});

/** Waits until `count` sessions of this test's database are blocked on a row lock. */
async function waitForLockWaiters(target: TestRuntime, count: number): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const [row] = await target.sql<{ waiting: number }[]>`
      select count(*)::int as waiting from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`;
    if (row!.waiting >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${count} sessions ever waited for a lock`);
}
