import { randomUUID } from 'node:crypto';
import { incidents, settings } from '@firebreak/db';
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
let scheduleId: string;

beforeAll(async () => {
  ({ runtime, api, admin, member, viewer, ana, ben } = await startOnCallTestApp());
  const schedule = await api('POST', '/api/v1/schedules', { token: admin.token, body: { name: 'Primary' } });
  scheduleId = (await bodyOf(schedule)).id;
});
afterAll(() => runtime.cleanup());

let counter = 0;
const create = (body: Record<string, unknown>, token = admin.token) =>
  api('POST', '/api/v1/escalation-policies', { token, body: { name: `Policy ${++counter}`, ...body } });
async function created(body: Record<string, unknown>) {
  const res = await create(body);
  expect(res.status).toBe(201);
  return bodyOf(res);
}
const patch = (id: string, body: unknown, token = admin.token) =>
  api('PATCH', `/api/v1/escalation-policies/${id}`, { token, body });
async function issuePaths(res: Response): Promise<string[]> {
  expect(res.status).toBe(400);
  const { error } = await bodyOf(res);
  expect(error.code).toBe('validation_failed');
  return error.details.map((d: { path: string }) => d.path);
}

describe('POST /api/v1/escalation-policies', () => {
  it('creates a policy with ordered tiers; users by id or by name, or a schedule', async () => {
    const res = await create({
      name: 'Checkout',
      description: 'Pages the payments team',
      repeat: 2,
      tiers: [
        { target_type: 'users', user_ids: [ana.id, ben.id], timeout_seconds: 120 },
        { target_type: 'schedule', schedule_id: scheduleId, timeout_seconds: 600 },
        { target_type: 'users', user_names: ['mia member'] },
      ],
    });
    expect(res.status).toBe(201);
    const policy = await bodyOf(res);
    expect(policy).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Checkout',
      description: 'Pages the payments team',
      enabled: true,
      repeat: 2,
      tiers: [
        {
          target_type: 'users',
          user_ids: [ana.id, ben.id],
          user_names: ['Ana Alves', 'Ben Brandt'],
          schedule_id: null,
          timeout_seconds: 120,
        },
        {
          target_type: 'schedule',
          user_ids: [],
          user_names: [],
          schedule_id: scheduleId,
          timeout_seconds: 600,
        },
        {
          target_type: 'users',
          user_ids: [member.id],
          user_names: ['Mia Member'],
          schedule_id: null,
          timeout_seconds: 300,
        },
      ],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(
      await bodyOf(await api('GET', `/api/v1/escalation-policies/${policy.id}`, { token: viewer.token })),
    ).toEqual(policy);
  });

  it('defaults: empty description, enabled, repeat 0, no tiers', async () => {
    expect(await created({})).toMatchObject({ description: '', enabled: true, repeat: 0, tiers: [] });
  });

  it('answers 400 at the path of inconsistent tiers', async () => {
    const res = await create({
      repeat: -1,
      tiers: [
        { target_type: 'schedule' },
        { target_type: 'users', schedule_id: scheduleId, user_ids: [ana.id] },
        { target_type: 'users' },
        { target_type: 'users', user_ids: [null] },
        { target_type: 'users', user_ids: [ana.id], user_names: ['A', 'B'] },
        { target_type: 'pager', user_ids: [ana.id] },
        { target_type: 'users', user_ids: [ana.id], timeout_seconds: 0 },
      ],
    });
    expect((await issuePaths(res)).sort()).toEqual([
      'repeat',
      'tiers[0].schedule_id',
      'tiers[1].schedule_id',
      'tiers[2].user_ids',
      'tiers[3].user_ids[0]',
      'tiers[4].user_names',
      'tiers[5].target_type',
      'tiers[6].timeout_seconds',
    ]);
  });

  it('answers 400 at the path of unknown users and schedules', async () => {
    const res = await create({
      tiers: [
        { target_type: 'users', user_names: ['Ana Alves', 'Nobody Atall'] },
        { target_type: 'schedule', schedule_id: '00000000-0000-4000-8000-000000000000' },
        { target_type: 'users', user_ids: ['00000000-0000-4000-8000-000000000000'] },
      ],
    });
    const { error } = await bodyOf(res);
    expect(res.status).toBe(400);
    expect(error.details).toEqual([
      { path: 'tiers[1].schedule_id', message: 'no schedule has this id' },
      { path: 'tiers[0].user_names[1]', message: 'no user is named "Nobody Atall"' },
      { path: 'tiers[2].user_ids[0]', message: 'no user has this id' },
    ]);
  });

  it('answers 409 for a name already taken, 403 for members and viewers', async () => {
    await created({ name: 'Taken policy' });
    const res = await create({ name: 'Taken policy' });
    expect(res.status).toBe(409);
    expect((await bodyOf(res)).error.code).toBe('conflict');
    expect((await create({}, member.token)).status).toBe(403);
    expect((await create({}, viewer.token)).status).toBe(403);
  });
});

describe('GET /api/v1/escalation-policies', () => {
  it('lists policies by name with their tiers, for every role', async () => {
    await created({ name: 'AAA first', tiers: [{ target_type: 'users', user_ids: [ben.id] }] });
    for (const token of [viewer.token, member.token]) {
      const res = await api('GET', '/api/v1/escalation-policies', { token });
      const { escalation_policies: list } = await bodyOf(res);
      const names: string[] = list.map((p: { name: string }) => p.name);
      expect(names).toEqual([...names].sort());
      expect(list[0]).toMatchObject({ name: 'AAA first', tiers: [{ user_ids: [ben.id] }] });
    }
  });
});

describe('PATCH /api/v1/escalation-policies/{id}', () => {
  it('changes fields and replaces tiers; what a read shows can be sent back as it is', async () => {
    const policy = await created({ tiers: [{ target_type: 'users', user_ids: [ana.id] }] });
    const res = await patch(policy.id, { enabled: false, repeat: 1, description: 'Off for now' });
    expect(await bodyOf(res)).toMatchObject({
      enabled: false,
      repeat: 1,
      description: 'Off for now',
      tiers: policy.tiers,
    });
    const tiers = [
      {
        target_type: 'users',
        user_ids: [ben.id, null],
        user_names: ['Ben Brandt', 'External Eve'],
        timeout_seconds: 60,
      },
      {
        target_type: 'schedule',
        user_ids: [],
        user_names: [],
        schedule_id: scheduleId,
        timeout_seconds: 900,
      },
    ];
    const replaced = await bodyOf(await patch(policy.id, { tiers }));
    expect(replaced.tiers).toEqual([{ ...tiers[0], schedule_id: null }, tiers[1]]);
    const again = await patch(policy.id, { tiers: replaced.tiers });
    expect((await bodyOf(again)).tiers).toEqual(replaced.tiers);
    const [counted] = await runtime.sql<{ count: number }[]>`
      select count(*)::int as count from escalation_tiers where policy_id = ${policy.id}`;
    expect(counted!.count).toBe(2);
  });

  it('refuses a taken name, an empty change, members and unknown policies', async () => {
    const a = await created({});
    const b = await created({});
    expect((await patch(b.id, { name: a.name })).status).toBe(409);
    expect((await patch(b.id, {})).status).toBe(400);
    expect((await patch(b.id, { enabled: false }, member.token)).status).toBe(403);
    expect((await patch('00000000-0000-4000-8000-000000000000', { enabled: false })).status).toBe(404);
  });
});

describe('DELETE /api/v1/escalation-policies/{id}', () => {
  it('deletes the policy and its tiers; incidents that used it keep going without one', async () => {
    const policy = await created({ tiers: [{ target_type: 'users', user_ids: [ana.id] }] });
    const incident = await incidents.insertIncident(runtime.sql, {
      id: randomUUID(),
      number: (await incidents.reserveIncidentOpening(runtime.sql, null)).number,
      title: 'Uses the policy',
      description: '',
      severity: 'high',
      source: 'manual',
      commanderId: null,
      escalationPolicyId: policy.id,
      createdAt: new Date(),
    });
    expect(
      (await api('DELETE', `/api/v1/escalation-policies/${policy.id}`, { token: member.token })).status,
    ).toBe(403);
    expect(
      (await api('DELETE', `/api/v1/escalation-policies/${policy.id}`, { token: admin.token })).status,
    ).toBe(204);
    expect(
      (await api('GET', `/api/v1/escalation-policies/${policy.id}`, { token: admin.token })).status,
    ).toBe(404);
    const [row] = await runtime.sql`select escalation_policy_id from incidents where id = ${incident.id}`;
    expect(row!.escalation_policy_id).toBeNull();
    const [counted] = await runtime.sql<
      { count: number }[]
    >`select count(*)::int as count from escalation_tiers where policy_id = ${policy.id}`;
    expect(counted!.count).toBe(0);
  });

  it('refuses with 409 while a routing rule or the installation default names the policy', async () => {
    const policy = await created({});
    await runtime.sql`
      insert into routing_rules (name, priority, actions)
      values ('Checkout alerts', 10, ${runtime.sql.json({ create_incident: true, escalation_policy_id: policy.id })})`;
    const byRule = await api('DELETE', `/api/v1/escalation-policies/${policy.id}`, { token: admin.token });
    expect(byRule.status).toBe(409);
    expect((await bodyOf(byRule)).error).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('routing rule "Checkout alerts"'),
      details: { routing_rules: ['Checkout alerts'], default: false },
    });
    await runtime.sql`delete from routing_rules where name = 'Checkout alerts'`;
    await settings.putSetting(runtime.sql, 'default_escalation_policy_id', policy.id);
    const byDefault = await api('DELETE', `/api/v1/escalation-policies/${policy.id}`, { token: admin.token });
    expect((await bodyOf(byDefault)).error.details).toEqual({ routing_rules: [], default: true });
    await settings.deleteSetting(runtime.sql, 'default_escalation_policy_id');
    expect(
      (await api('DELETE', `/api/v1/escalation-policies/${policy.id}`, { token: admin.token })).status,
    ).toBe(204);
  });

  it('an incident cannot name a policy that does not exist', async () => {
    const insert = incidents.insertIncident(runtime.sql, {
      id: randomUUID(),
      number: (await incidents.reserveIncidentOpening(runtime.sql, null)).number,
      title: 'Dangling',
      description: '',
      severity: 'low',
      source: 'manual',
      commanderId: null,
      escalationPolicyId: '00000000-0000-4000-8000-000000000000',
      createdAt: new Date(),
    });
    await expect(insert).rejects.toMatchObject({ code: '23503' });
  });
});

describe('deleting a user a tier names', () => {
  it('keeps the name in the tier, without the account', async () => {
    const leaving = await createTestUser(runtime, 'member', 'Leo Leaving');
    const policy = await created({ tiers: [{ target_type: 'users', user_ids: [leaving.id, ana.id] }] });
    await runtime.sql`update users set name = 'Leo Left' where id = ${leaving.id}`;
    expect((await api('DELETE', `/api/v1/users/${leaving.id}`, { token: admin.token })).status).toBe(204);
    const read = await bodyOf(
      await api('GET', `/api/v1/escalation-policies/${policy.id}`, { token: viewer.token }),
    );
    expect(read.tiers[0]).toMatchObject({ user_ids: [null, ana.id], user_names: ['Leo Left', 'Ana Alves'] });
  });
});
