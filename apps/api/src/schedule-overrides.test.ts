import type { TestRuntime, TestUser } from '@firebreak/runtime/testing';
import { resolveTargets } from '@firebreak/services';
import { bodyOf, type TestClient } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOnCallTestApp } from './oncall-test-app';

let runtime: TestRuntime;
let api: TestClient;
let admin: TestUser;
let member: TestUser;
let viewer: TestUser;
let ana: TestUser;
let ben: TestUser;

beforeAll(async () => {
  ({ runtime, api, admin, member, viewer, ana, ben } = await startOnCallTestApp());
  await runtime.sql`update users set slack_user_id = 'U0BEN' where id = ${ben.id}`;
});
afterAll(() => runtime.cleanup());

let counter = 0;
/** A daily rotation from 2026-01-05 09:00 UTC: Ana, then Ben, round and round. */
async function schedule(extra: Record<string, unknown> = {}) {
  const res = await api('POST', '/api/v1/schedules', {
    token: admin.token,
    body: {
      name: `Overrides ${++counter}`,
      layers: [
        {
          name: 'Days',
          rotation_start: '2026-01-05T09:00:00Z',
          shift_duration_seconds: 86_400,
          participants: [ana.id, ben.id],
        },
      ],
      ...extra,
    },
  });
  expect(res.status).toBe(201);
  return (await bodyOf(res)).id as string;
}

const addOverride = (id: string, body: Record<string, unknown>, token = admin.token) =>
  api('POST', `/api/v1/schedules/${id}/overrides`, { token, body });

async function shifts(path: string, from: string, to: string, token = viewer.token) {
  const res = await api('GET', `${path}?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`, {
    token,
  });
  expect(res.status).toBe(200);
  return (await bodyOf(res)).shifts as Array<Record<string, unknown>>;
}

const onCallName = async (id: string, at: string) =>
  (await bodyOf(await api('GET', `/api/v1/schedules/${id}/on-call?at=${at}`, { token: viewer.token })))
    .users[0]?.name;

describe('overrides', () => {
  it('an admin puts someone on call for a window: on-call and the shifts show it, the audit log records it', async () => {
    const id = await schedule();
    const res = await addOverride(id, {
      user_id: member.id,
      starts_at: '2026-01-05T12:00:00Z',
      ends_at: '2026-01-05T15:00:00+00:00',
    });
    expect(res.status).toBe(201);
    const created = await bodyOf(res);
    expect(created).toEqual({
      id: expect.any(String),
      schedule_id: id,
      user: { id: member.id, name: 'Mia Member' },
      replaces_user_id: null,
      starts_at: '2026-01-05T12:00:00.000Z',
      ends_at: '2026-01-05T15:00:00.000Z',
      created_by: admin.id,
      created_at: expect.any(String),
    });
    expect(await onCallName(id, '2026-01-05T13:00:00Z')).toBe('Mia Member');
    expect(await onCallName(id, '2026-01-05T15:00:00Z')).toBe('Ana Alves');

    expect(
      await shifts(`/api/v1/schedules/${id}/shifts`, '2026-01-05T09:00:00Z', '2026-01-06T12:00:00Z'),
    ).toEqual([
      {
        user: { id: ana.id, name: 'Ana Alves' },
        starts_at: '2026-01-05T09:00:00.000Z',
        ends_at: '2026-01-05T12:00:00.000Z',
        schedule_id: id,
        source: 'layer',
        layer_name: 'Days',
      },
      {
        user: { id: member.id, name: 'Mia Member' },
        starts_at: '2026-01-05T12:00:00.000Z',
        ends_at: '2026-01-05T15:00:00.000Z',
        schedule_id: id,
        source: 'override',
      },
      {
        user: { id: ana.id, name: 'Ana Alves' },
        starts_at: '2026-01-05T15:00:00.000Z',
        ends_at: '2026-01-06T09:00:00.000Z',
        schedule_id: id,
        source: 'layer',
        layer_name: 'Days',
      },
      {
        user: { id: ben.id, name: 'Ben Brandt' },
        starts_at: '2026-01-06T09:00:00.000Z',
        ends_at: '2026-01-06T12:00:00.000Z',
        schedule_id: id,
        source: 'layer',
        layer_name: 'Days',
      },
    ]);

    const list = await api(
      'GET',
      `/api/v1/schedules/${id}/overrides?from=2026-01-01T00:00:00Z&to=2026-01-31T00:00:00Z`,
      { token: viewer.token },
    );
    expect((await bodyOf(list)).overrides).toEqual([created]);

    const [audit] = await runtime.sql`
      select actor_id, action, after from audit_log where entity_type = 'schedule_override' and entity_id = ${created.id}`;
    expect(audit).toMatchObject({ actor_id: admin.id, action: 'create', after: created });
  });

  it('with replaces_user_id, takes only that person’s time; the escalation targets follow', async () => {
    const id = await schedule();
    // Ana until 09:00 on the 6th, then Ben: "Mia covers Ana" from 06:00 to 12:00 stops at 09:00.
    const res = await addOverride(id, {
      user_id: member.id,
      replaces_user_id: ana.id,
      starts_at: '2026-01-06T06:00:00Z',
      ends_at: '2026-01-06T12:00:00Z',
    });
    expect(res.status).toBe(201);
    expect(await onCallName(id, '2026-01-06T08:00:00Z')).toBe('Mia Member');
    expect(await onCallName(id, '2026-01-06T10:00:00Z')).toBe('Ben Brandt');
    // An escalation tier on this schedule pages Mia while she covers Ana, then Ben.
    const tier = {
      position: 0,
      target_type: 'schedule' as const,
      schedule_id: id,
      timeout_seconds: 300,
      users: [],
    };
    expect(await resolveTargets(runtime.sql, tier, new Date('2026-01-06T08:00:00Z'))).toEqual([
      { id: member.id, name: 'Mia Member', slack_user_id: null },
    ]);
    expect(await resolveTargets(runtime.sql, tier, new Date('2026-01-06T10:00:00Z'))).toEqual([
      { id: ben.id, name: 'Ben Brandt', slack_user_id: 'U0BEN' },
    ]);
  });

  it('the newest of overlapping overrides decides', async () => {
    const id = await schedule();
    await addOverride(id, {
      user_id: member.id,
      starts_at: '2026-01-05T10:00:00Z',
      ends_at: '2026-01-05T14:00:00Z',
    });
    await addOverride(id, {
      user_id: ben.id,
      starts_at: '2026-01-05T12:00:00Z',
      ends_at: '2026-01-05T16:00:00Z',
    });
    expect(await onCallName(id, '2026-01-05T11:00:00Z')).toBe('Mia Member');
    expect(await onCallName(id, '2026-01-05T13:00:00Z')).toBe('Ben Brandt');
  });

  it('answers 400, with nothing stored, for a reversed or too long window, an unknown user, or the same person twice', async () => {
    const id = await schedule();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ user_id: ana.id, starts_at: '2026-01-05T12:00:00Z', ends_at: '2026-01-05T11:00:00Z' }, 'ends_at'],
      [{ user_id: ana.id, starts_at: '2026-01-01T00:00:00Z', ends_at: '2026-04-02T00:00:00Z' }, 'ends_at'],
      [
        {
          user_id: '00000000-0000-4000-8000-000000000000',
          starts_at: '2026-01-05T10:00:00Z',
          ends_at: '2026-01-05T11:00:00Z',
        },
        'user_id',
      ],
      [
        {
          user_id: ana.id,
          replaces_user_id: '00000000-0000-4000-8000-000000000000',
          starts_at: '2026-01-05T10:00:00Z',
          ends_at: '2026-01-05T11:00:00Z',
        },
        'replaces_user_id',
      ],
      [
        {
          user_id: ana.id,
          replaces_user_id: ana.id,
          starts_at: '2026-01-05T10:00:00Z',
          ends_at: '2026-01-05T11:00:00Z',
        },
        'replaces_user_id',
      ],
      [{ user_id: ana.id, starts_at: 'tomorrow', ends_at: '2026-01-05T11:00:00Z' }, 'starts_at'],
    ];
    for (const [body, path] of cases) {
      const res = await addOverride(id, body);
      expect(res.status).toBe(400);
      const { error } = await bodyOf(res);
      expect(error.code).toBe('validation_failed');
      expect(error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    const stored = await runtime.sql`select id from schedule_overrides where schedule_id = ${id}`;
    expect(stored).toHaveLength(0);
    expect((await addOverride('00000000-0000-4000-8000-000000000000', cases[0]![0])).status).toBe(400);
    const missing = await addOverride('00000000-0000-4000-8000-000000000000', {
      user_id: ana.id,
      starts_at: '2026-01-05T10:00:00Z',
      ends_at: '2026-01-05T11:00:00Z',
    });
    expect(missing.status).toBe(404);
  });

  it('a member may take a shift themselves and delete their own; not for others; a viewer not at all', async () => {
    const id = await schedule();
    const tomorrow = Math.ceil(Date.now() / 86_400_000) * 86_400_000;
    const window = {
      starts_at: new Date(tomorrow + 9 * 3_600_000).toISOString(),
      ends_at: new Date(tomorrow + 17 * 3_600_000).toISOString(),
    };
    expect((await addOverride(id, { user_id: ben.id, ...window }, member.token)).status).toBe(403);
    expect((await addOverride(id, { user_id: viewer.id, ...window }, viewer.token)).status).toBe(403);
    const mine = await addOverride(
      id,
      { user_id: member.id, replaces_user_id: ana.id, ...window },
      member.token,
    );
    expect(mine.status).toBe(201);
    const byAdmin = await bodyOf(await addOverride(id, { user_id: member.id, ...window }));
    const mineId = (await bodyOf(mine)).id;

    expect(
      (await api('DELETE', `/api/v1/schedules/${id}/overrides/${byAdmin.id}`, { token: member.token }))
        .status,
    ).toBe(403);
    expect(
      (await api('DELETE', `/api/v1/schedules/${id}/overrides/${mineId}`, { token: viewer.token })).status,
    ).toBe(403);
    expect(
      (await api('DELETE', `/api/v1/schedules/${id}/overrides/${mineId}`, { token: member.token })).status,
    ).toBe(204);
    expect(
      (await api('DELETE', `/api/v1/schedules/${id}/overrides/${mineId}`, { token: member.token })).status,
    ).toBe(404);
    expect(
      (await api('DELETE', `/api/v1/schedules/${id}/overrides/${byAdmin.id}`, { token: admin.token })).status,
    ).toBe(204);
    const rows = await runtime.sql`
      select action, actor_id from audit_log where entity_type = 'schedule_override' and entity_id = ${mineId} order by seq`;
    expect(rows.map((r) => [r.action, r.actor_id])).toEqual([
      ['create', member.id],
      ['delete', member.id],
    ]);
  });

  it('a member covers from now on, never in the past; an admin may record past cover', async () => {
    const id = await schedule();
    const hour = 3_600_000;
    const now = Date.now();
    const past = {
      starts_at: new Date(now - 3 * hour).toISOString(),
      ends_at: new Date(now + hour).toISOString(),
    };
    const res = await addOverride(id, { user_id: member.id, ...past }, member.token);
    expect(res.status).toBe(400);
    expect((await bodyOf(res)).error.details.map((d: { path: string }) => d.path)).toEqual(['starts_at']);
    expect(await runtime.sql`select id from schedule_overrides where schedule_id = ${id}`).toHaveLength(0);
    const fromNow = { starts_at: new Date(now).toISOString(), ends_at: past.ends_at };
    expect((await addOverride(id, { user_id: member.id, ...fromNow }, member.token)).status).toBe(201);
    expect((await addOverride(id, { user_id: member.id, ...past })).status).toBe(201);
  });
});

describe('shifts', () => {
  it('a user’s shifts across schedules, by start; `me` is whoever asks', async () => {
    const first = await schedule();
    const second = await schedule({
      layers: [
        {
          name: 'Nights',
          rotation_start: '2026-01-05T21:00:00Z',
          shift_duration_seconds: 43_200,
          participants: [ben.id],
        },
      ],
    });
    const ours = (list: Array<Record<string, unknown>>) =>
      list.filter((s) => s.schedule_id === first || s.schedule_id === second);
    const mine = ours(
      await shifts('/api/v1/users/me/shifts', '2026-01-06T00:00:00Z', '2026-01-07T00:00:00Z', ben.token),
    );
    // Ben's night shifts of 12 hours follow each other: one span. His day turn starts at 09:00.
    expect(mine.map((s) => [s.schedule_id, s.starts_at, s.ends_at, s.user])).toEqual([
      [second, '2026-01-06T00:00:00.000Z', '2026-01-07T00:00:00.000Z', { id: ben.id, name: 'Ben Brandt' }],
      [first, '2026-01-06T09:00:00.000Z', '2026-01-07T00:00:00.000Z', { id: ben.id, name: 'Ben Brandt' }],
    ]);
    const theirs = await shifts(
      `/api/v1/users/${ben.id}/shifts`,
      '2026-01-06T00:00:00Z',
      '2026-01-07T00:00:00Z',
    );
    expect(ours(theirs)).toEqual(mine);
  });

  it('answers 400 for a window over 90 days or reversed, 404 for an unknown schedule or user', async () => {
    const id = await schedule();
    for (const query of [
      '?from=2026-01-01T00:00:00Z&to=2026-04-02T00:00:00Z',
      '?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z',
      '?to=2000-01-01T00:00:00Z',
      '?from=yesterday',
    ]) {
      const res = await api('GET', `/api/v1/schedules/${id}/shifts${query}`, { token: viewer.token });
      expect(`${query} ${res.status}`).toBe(`${query} 400`);
    }
    expect(
      (
        await api('GET', '/api/v1/schedules/00000000-0000-4000-8000-000000000000/shifts', {
          token: viewer.token,
        })
      ).status,
    ).toBe(404);
    expect(
      (await api('GET', '/api/v1/users/00000000-0000-4000-8000-000000000000/shifts', { token: viewer.token }))
        .status,
    ).toBe(404);
    expect((await api('GET', '/api/v1/users/someone/shifts', { token: viewer.token })).status).toBe(404);
    // A one-minute rotation over 10 days is 14 400 turns: refused rather than computed.
    const minutely = await schedule({
      layers: [
        {
          rotation_start: '2026-01-05T00:00:00Z',
          shift_duration_seconds: 60,
          participants: [ana.id, ben.id],
        },
      ],
    });
    const many = await api(
      'GET',
      `/api/v1/schedules/${minutely}/shifts?from=2026-01-05T00:00:00Z&to=2026-01-15T00:00:00Z`,
      {
        token: viewer.token,
      },
    );
    expect(many.status).toBe(400);
    expect((await bodyOf(many)).error.details[0].message).toContain('ask for a shorter one');
    const hour = await api(
      'GET',
      `/api/v1/schedules/${minutely}/shifts?from=2026-01-05T00:00:00Z&to=2026-01-05T01:00:00Z`,
      {
        token: viewer.token,
      },
    );
    expect((await bodyOf(hour)).shifts).toHaveLength(60);
  });

  it('defaults to now → now + 14 days', async () => {
    const id = await schedule();
    const list = await shifts(
      `/api/v1/schedules/${id}/shifts`,
      new Date().toISOString(),
      new Date(Date.now() + 14 * 86_400_000).toISOString(),
    );
    const res = await api('GET', `/api/v1/schedules/${id}/shifts`, { token: viewer.token });
    const byDefault = (await bodyOf(res)).shifts as Array<Record<string, string>>;
    expect(byDefault.length).toBe(list.length);
    expect(byDefault.length).toBeGreaterThanOrEqual(14);
    const span = Date.parse(String(byDefault.at(-1)?.ends_at)) - Date.parse(String(byDefault[0]?.starts_at));
    expect(Math.round(span / 86_400_000)).toBe(14);
  });
});

describe('PATCH /api/v1/users/me', () => {
  it('lets anyone turn shift notices off and on for themselves, audited; admins may too', async () => {
    const off = await api('PATCH', '/api/v1/users/me', {
      token: viewer.token,
      body: { shift_notices: false },
    });
    expect(off.status).toBe(200);
    expect(await bodyOf(off)).toMatchObject({ id: viewer.id, shift_notices: false });
    const [audit] = await runtime.sql`
      select actor_id, before, after from audit_log where entity_type = 'user' and entity_id = ${viewer.id} order by seq desc limit 1`;
    expect(audit).toMatchObject({
      actor_id: viewer.id,
      before: { shift_notices: true },
      after: { shift_notices: false },
    });
    const byAdmin = await api('PATCH', `/api/v1/users/${viewer.id}`, {
      token: admin.token,
      body: { shift_notices: true },
    });
    expect(await bodyOf(byAdmin)).toMatchObject({ shift_notices: true });
  });

  it('takes nothing else: a role change or an empty body is 400, and changes nothing', async () => {
    for (const body of [{ role: 'admin' }, {}, { shift_notices: 'no' }]) {
      const res = await api('PATCH', '/api/v1/users/me', { token: member.token, body });
      expect(res.status).toBe(400);
    }
    const [row] = await runtime.sql`select role, shift_notices from users where id = ${member.id}`;
    expect(row).toEqual({ role: 'member', shift_notices: true });
  });
});
