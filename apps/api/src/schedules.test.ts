import { createTestUser, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
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
  await runtime.sql`update users set slack_user_id = 'U0ANA' where id = ${ana.id}`;
});
afterAll(() => runtime.cleanup());

let counter = 0;
const create = (body: Record<string, unknown>, token = admin.token) =>
  api('POST', '/api/v1/schedules', { token, body: { name: `Schedule ${++counter}`, ...body } });
async function created(body: Record<string, unknown>) {
  const res = await create(body);
  expect(res.status).toBe(201);
  return bodyOf(res);
}
async function onCall(id: string, at?: string, token = viewer.token) {
  const query = at ? `?at=${encodeURIComponent(at)}` : '';
  return api('GET', `/api/v1/schedules/${id}/on-call${query}`, { token });
}
async function issuePaths(res: Response): Promise<string[]> {
  expect(res.status).toBe(400);
  const { error } = await bodyOf(res);
  expect(error.code).toBe('validation_failed');
  return error.details.map((d: { path: string }) => d.path);
}

describe('POST /api/v1/schedules', () => {
  it('creates a schedule with layers; participants given by id, by name or as bare strings', async () => {
    const res = await create({
      name: 'Primary',
      timezone: 'Europe/Berlin',
      layers: [
        {
          name: 'Weekdays',
          rotation_start: '2026-01-05T09:00:00+01:00',
          shift_duration_seconds: 604_800,
          participants: [{ user_id: ana.id }, { name: 'ben brandt' }, 'Mia Member', ana.id],
        },
        {
          rotation_start: '2026-01-05T09:00',
          shift_duration_seconds: 86_400,
          rotation_type: 'daily',
          participants: [{ user_id: null, name: 'Contractor Carla' }],
        },
      ],
    });
    expect(res.status).toBe(201);
    const schedule = await bodyOf(res);
    expect(schedule).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Primary',
      timezone: 'Europe/Berlin',
      layers: [
        {
          name: 'Weekdays',
          order_index: 0,
          rotation_start: '2026-01-05T08:00:00.000Z',
          shift_duration_seconds: 604_800,
          rotation_type: 'weekly',
          participants: [
            { user_id: ana.id, name: 'Ana Alves' },
            { user_id: ben.id, name: 'Ben Brandt' },
            { user_id: member.id, name: 'Mia Member' },
            { user_id: ana.id, name: 'Ana Alves' },
          ],
        },
        {
          name: 'Layer',
          order_index: 1,
          // No offset: wall-clock time in the schedule's zone.
          rotation_start: '2026-01-05T08:00:00.000Z',
          shift_duration_seconds: 86_400,
          rotation_type: 'daily',
          participants: [{ user_id: null, name: 'Contractor Carla' }],
        },
      ],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const read = await api('GET', `/api/v1/schedules/${schedule.id}`, { token: viewer.token });
    expect(await bodyOf(read)).toEqual(schedule);
  });

  it('defaults to UTC and no layers, and lists layers by order_index', async () => {
    const schedule = await created({
      layers: [
        {
          order_index: 5,
          rotation_start: '2026-01-01T00:00:00Z',
          shift_duration_seconds: 3600,
          participants: [],
        },
        { order_index: 2, rotation_start: '2026-01-01T00:00:00Z', shift_duration_seconds: 3600 },
      ],
    });
    expect(schedule.timezone).toBe('UTC');
    expect(schedule.layers.map((l: { order_index: number }) => l.order_index)).toEqual([2, 5]);
    expect((await created({})).layers).toEqual([]);
  });

  it('answers 400 at the path of an unknown, ambiguous or malformed participant', async () => {
    await createTestUser(runtime, 'viewer', 'Sam Twin');
    await createTestUser(runtime, 'viewer', 'sam twin');
    const res = await create({
      layers: [
        {
          rotation_start: '2026-01-01T00:00:00Z',
          shift_duration_seconds: 86_400,
          participants: [
            ana.id,
            'Ben Brandt',
            'Nobody Atall',
            '00000000-0000-4000-8000-000000000000',
            'Sam Twin',
          ],
        },
        { rotation_start: '2026-01-01T00:00:00Z', shift_duration_seconds: 86_400, participants: [{}] },
      ],
    });
    expect(await issuePaths(res)).toEqual(['layers[1].participants[0]']);
    const unknown = await create({
      layers: [
        {
          rotation_start: '2026-01-01T00:00:00Z',
          shift_duration_seconds: 86_400,
          participants: [
            ana.id,
            'Ben Brandt',
            'Nobody Atall',
            '00000000-0000-4000-8000-000000000000',
            'Sam Twin',
          ],
        },
      ],
    });
    const { error } = await bodyOf(unknown);
    expect(error.details).toEqual([
      { path: 'layers[0].participants[2]', message: 'no user is named "Nobody Atall"' },
      { path: 'layers[0].participants[3]', message: 'no user has this id' },
      { path: 'layers[0].participants[4]', message: expect.stringContaining('2 users are named') },
    ]);
  });

  it('answers 400 for a bad time zone, start, duration or a repeated order_index', async () => {
    const res = await create({
      timezone: 'Mars/Olympus_Mons',
      layers: [
        { order_index: 1, rotation_start: 'next monday', shift_duration_seconds: 0, rotation_type: 'hourly' },
        { order_index: 1, rotation_start: '2026-01-01T00:00:00Z', shift_duration_seconds: 60 },
      ],
    });
    expect((await issuePaths(res)).sort()).toEqual([
      'layers[0].rotation_start',
      'layers[0].rotation_type',
      'layers[0].shift_duration_seconds',
      'timezone',
    ]);
    const twice = await create({
      layers: [
        { rotation_start: '2026-01-01T00:00:00Z', shift_duration_seconds: 60 },
        { order_index: 0, rotation_start: '2026-01-01T00:00:00Z', shift_duration_seconds: 60 },
      ],
    });
    expect(await issuePaths(twice)).toEqual(['layers[1].order_index']);
    expect(await issuePaths(await create({ timezone: '+01:00' }))).toEqual(['timezone']);
  });

  it('answers 409 for a name already taken, 403 for members and viewers', async () => {
    await created({ name: 'Taken' });
    const res = await create({ name: 'Taken' });
    expect(res.status).toBe(409);
    expect((await bodyOf(res)).error).toMatchObject({
      code: 'conflict',
      message: 'A schedule named "Taken" already exists.',
    });
    expect((await create({}, member.token)).status).toBe(403);
    expect((await create({}, viewer.token)).status).toBe(403);
  });
});

describe('concurrent writes', () => {
  it('of two creations with the same name at once, one wins and the other is 409', async () => {
    const results = await Promise.all([create({ name: 'Race' }), create({ name: 'Race' })]);
    expect(results.map((res) => res.status).sort()).toEqual([201, 409]);
  });
});

describe('GET /api/v1/schedules', () => {
  it('lists every schedule by name with its layers, for every role', async () => {
    await created({ name: 'Zulu' });
    await created({
      name: 'Alpha',
      layers: [
        { rotation_start: '2026-01-01T00:00:00Z', shift_duration_seconds: 60, participants: [ben.id] },
      ],
    });
    for (const token of [viewer.token, member.token]) {
      const { schedules } = await bodyOf(await api('GET', '/api/v1/schedules', { token }));
      const names: string[] = schedules.map((s: { name: string }) => s.name);
      expect(names).toEqual([...names].sort());
      const alpha = schedules.find((s: { name: string }) => s.name === 'Alpha');
      expect(alpha.layers[0].participants).toEqual([{ user_id: ben.id, name: 'Ben Brandt' }]);
    }
    expect(
      (await api('GET', '/api/v1/schedules/00000000-0000-4000-8000-000000000000', { token: viewer.token }))
        .status,
    ).toBe(404);
  });
});

describe('PATCH /api/v1/schedules/{id}', () => {
  it('renames, changes the zone, and replaces the layers when given', async () => {
    const schedule = await created({
      layers: [
        { rotation_start: '2026-01-01T00:00:00Z', shift_duration_seconds: 86_400, participants: [ana.id] },
      ],
    });
    const renamed = await bodyOf(
      await api('PATCH', `/api/v1/schedules/${schedule.id}`, {
        token: admin.token,
        body: { name: 'Renamed schedule' },
      }),
    );
    expect(renamed).toMatchObject({ name: 'Renamed schedule', layers: schedule.layers });
    const res = await api('PATCH', `/api/v1/schedules/${schedule.id}`, {
      token: admin.token,
      body: {
        timezone: 'America/New_York',
        layers: [
          {
            name: 'New',
            rotation_start: '2026-01-05T09:00',
            shift_duration_seconds: 43_200,
            participants: ['Ben Brandt'],
          },
        ],
      },
    });
    expect(res.status).toBe(200);
    const changed = await bodyOf(res);
    expect(changed.timezone).toBe('America/New_York');
    expect(changed.layers).toEqual([
      {
        name: 'New',
        order_index: 0,
        rotation_start: '2026-01-05T14:00:00.000Z',
        shift_duration_seconds: 43_200,
        rotation_type: 'daily',
        participants: [{ user_id: ben.id, name: 'Ben Brandt' }],
      },
    ]);
    const [counted] = await runtime.sql<
      { count: number }[]
    >`select count(*)::int as count from schedule_layers where schedule_id = ${schedule.id}`;
    expect(counted!.count).toBe(1);
  });

  it('refuses a taken name, unknown people, an empty change, members, and unknown schedules', async () => {
    const a = await created({});
    const b = await created({});
    const patch = (body: unknown, token = admin.token, id = b.id) =>
      api('PATCH', `/api/v1/schedules/${id}`, { token, body });
    expect((await patch({ name: a.name })).status).toBe(409);
    const unknown = await patch({
      layers: [
        { rotation_start: '2026-01-01T00:00:00Z', shift_duration_seconds: 60, participants: ['Nobody'] },
      ],
    });
    expect(await issuePaths(unknown)).toEqual(['layers[0].participants[0]']);
    expect((await patch({})).status).toBe(400);
    expect((await patch({ name: 'x' }, member.token)).status).toBe(403);
    expect((await patch({ name: 'x' }, admin.token, '00000000-0000-4000-8000-000000000000')).status).toBe(
      404,
    );
  });
});

describe('DELETE /api/v1/schedules/{id}', () => {
  it('deletes the schedule with its layers and participants', async () => {
    const schedule = await created({
      layers: [
        {
          rotation_start: '2026-01-01T00:00:00Z',
          shift_duration_seconds: 60,
          participants: [ana.id, ben.id],
        },
      ],
    });
    expect((await api('DELETE', `/api/v1/schedules/${schedule.id}`, { token: member.token })).status).toBe(
      403,
    );
    expect((await api('DELETE', `/api/v1/schedules/${schedule.id}`, { token: admin.token })).status).toBe(
      204,
    );
    expect((await api('GET', `/api/v1/schedules/${schedule.id}`, { token: admin.token })).status).toBe(404);
    const [counted] = await runtime.sql<{ count: number }[]>`
      select count(*)::int as count from schedule_participants p
      where not exists (select 1 from schedule_layers l where l.id = p.layer_id)`;
    expect(counted!.count).toBe(0);
    expect((await api('DELETE', `/api/v1/schedules/${schedule.id}`, { token: admin.token })).status).toBe(
      404,
    );
  });

  it('refuses with 409 while an escalation policy pages the schedule, naming the policy', async () => {
    const schedule = await created({});
    const policy = await api('POST', '/api/v1/escalation-policies', {
      token: admin.token,
      body: { name: 'Pages the schedule', tiers: [{ target_type: 'schedule', schedule_id: schedule.id }] },
    });
    expect(policy.status).toBe(201);
    const res = await api('DELETE', `/api/v1/schedules/${schedule.id}`, { token: admin.token });
    expect(res.status).toBe(409);
    expect((await bodyOf(res)).error).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('"Pages the schedule"'),
      details: { escalation_policies: ['Pages the schedule'] },
    });
  });
});

describe('GET /api/v1/schedules/{id}/on-call', () => {
  it('answers who is on call at a time, handing over at 09:00 Berlin on both sides of DST', async () => {
    const schedule = await created({
      timezone: 'Europe/Berlin',
      layers: [
        {
          rotation_start: '2026-03-27T09:00',
          shift_duration_seconds: 86_400,
          participants: [ana.id, ben.id],
        },
      ],
    });
    const at = async (time: string) => (await bodyOf(await onCall(schedule.id, time))).users;
    expect(await at('2026-03-27T08:00:00Z')).toEqual([
      { id: ana.id, name: 'Ana Alves', email: ana.email, slack_user_id: 'U0ANA' },
    ]);
    expect((await at('2026-03-28T07:59:59Z'))[0].id).toBe(ana.id);
    expect((await at('2026-03-28T08:00:00Z'))[0].id).toBe(ben.id); // 09:00 CET
    expect((await at('2026-03-29T06:59:59Z'))[0].id).toBe(ben.id);
    expect((await at('2026-03-29T07:00:00Z'))[0].id).toBe(ana.id); // 09:00 CEST
    expect((await at('2026-03-29T09:00:00+02:00'))[0].id).toBe(ana.id);
    const unescaped = await api(
      'GET',
      `/api/v1/schedules/${schedule.id}/on-call?at=2026-03-29T08:59:59+02:00`,
      {
        token: viewer.token,
      },
    );
    expect((await bodyOf(unescaped)).users[0].id).toBe(ben.id);
    expect(await at('2026-03-27T07:59:59Z')).toEqual([]); // before rotation_start
  });

  it('lets a higher layer win where layers overlap, and reports a participant without account', async () => {
    const schedule = await created({
      layers: [
        {
          order_index: 0,
          rotation_start: '2026-01-01T00:00:00Z',
          shift_duration_seconds: 604_800,
          participants: [ana.id],
        },
        {
          order_index: 1,
          rotation_start: '2026-02-01T00:00:00Z',
          shift_duration_seconds: 86_400,
          participants: [{ user_id: null, name: 'Carla' }],
        },
      ],
    });
    expect((await bodyOf(await onCall(schedule.id, '2026-01-31T23:00:00Z'))).users[0].id).toBe(ana.id);
    expect(await bodyOf(await onCall(schedule.id, '2026-02-01T00:00:00Z'))).toEqual({
      users: [{ id: null, name: 'Carla', email: null, slack_user_id: null }],
    });
  });

  it('defaults to now, and refuses a time it cannot read and an unknown schedule', async () => {
    const schedule = await created({
      layers: [
        { rotation_start: '2020-01-01T00:00:00Z', shift_duration_seconds: 3600, participants: [ben.id] },
      ],
    });
    expect(await bodyOf(await onCall(schedule.id, undefined, member.token))).toEqual({
      users: [{ id: ben.id, name: 'Ben Brandt', email: ben.email, slack_user_id: null }],
    });
    expect(await issuePaths(await onCall(schedule.id, 'tomorrow'))).toEqual(['at']);
    expect((await onCall('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await api('GET', `/api/v1/schedules/${schedule.id}/on-call`)).status).toBe(401);
  });
});
