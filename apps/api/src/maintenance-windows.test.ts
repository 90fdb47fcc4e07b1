// Maintenance windows (docs/api.md#maintenance-windows): the API's rules, roles and validation.
import { oneUserPerRole, startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import { recordAlerts } from '@firebreak/services';
import { bodyOf, type JsonBody, type TestClient } from '@firebreak/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from './app';

const PATH = '/api/v1/maintenance-windows';
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
// Each test starts with no windows (a window left active would hold the next test's alerts).
beforeEach(async () => {
  await runtime.sql`delete from maintenance_windows`;
});

const hours = (n: number) => new Date(Date.now() + n * 3600_000).toISOString();
const create = (body: Record<string, unknown>, token = member.token) =>
  api('POST', PATH, { token, body: { name: 'DB upgrade', ...body } });
async function created(body: Record<string, unknown>): Promise<JsonBody> {
  const res = await create(body);
  const answer = await bodyOf(res);
  expect(res.status, JSON.stringify(answer)).toBe(201);
  return answer;
}
const list = async (query = '', token = viewer.token) => {
  const res = await api('GET', `${PATH}${query}`, { token });
  return { status: res.status, body: await bodyOf(res) };
};
async function problems(res: Response): Promise<Array<{ path: string; message: string }>> {
  const body = await bodyOf(res);
  expect(res.status, JSON.stringify(body)).toBe(400);
  expect(body.error.code).toBe('validation_failed');
  return body.error.details;
}

describe('maintenance windows API', () => {
  it('schedules a window and shows it with its status, newest start first, filtered by status', async () => {
    const ended = await created({ name: 'Last week', starts_at: hours(-3), ends_at: hours(-2) });
    const active = await created({
      name: 'Now',
      starts_at: hours(-1),
      ends_at: hours(1),
      match: { labels: { team: 'db' } },
    });
    const scheduled = await created({ name: 'Tonight', starts_at: hours(5), ends_at: hours(6) });
    expect(active).toEqual({
      id: expect.any(String),
      name: 'Now',
      starts_at: expect.any(String),
      ends_at: expect.any(String),
      match: { labels: { team: 'db' } },
      status: 'active',
      created_by: member.id,
      created_at: expect.any(String),
    });
    expect(ended.status).toBe('ended');
    expect(scheduled).toMatchObject({ status: 'scheduled', match: {} });

    const all = await list();
    expect(all.status).toBe(200);
    expect(all.body.maintenance_windows.map((w: JsonBody) => w.name)).toEqual([
      'Tonight',
      'Now',
      'Last week',
    ]);
    for (const status of ['scheduled', 'active', 'ended']) {
      const only = (await list(`?status=${status}`)).body.maintenance_windows;
      expect(only.map((w: JsonBody) => w.status)).toEqual([status]);
    }
    expect(await problems(await api('GET', `${PATH}?status=over`, { token: viewer.token }))).toEqual([
      expect.objectContaining({ path: 'status' }),
    ]);
  });

  it('refuses a bad window with every problem named, and stores nothing', async () => {
    const later = hours(2);
    expect(await problems(await create({ starts_at: later, ends_at: later }))).toEqual([
      { path: 'ends_at', message: 'ends_at must be after starts_at' },
    ]);
    expect(await problems(await create({ starts_at: hours(3), ends_at: hours(2) }))).toEqual([
      expect.objectContaining({ path: 'ends_at' }),
    ]);
    const paths = (
      await problems(
        await create({
          name: '',
          starts_at: '2026-11-21T10:00:00',
          ends_at: 'tomorrow',
          match: { integration_id: '0b5c8a4e-8f51-4d5e-9a39-2f3c1e6d7a10', labels: { team: 5 } },
        }),
      )
    ).map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining(['name', 'starts_at', 'ends_at', 'match', 'match.labels.team']),
    );
    // An empty list would hold back every alert instead of none.
    expect(
      (
        await problems(
          await create({ starts_at: hours(1), ends_at: hours(2), match: { integration_ids: [] } }),
        )
      ).map((p) => p.path),
    ).toEqual(['match.integration_ids']);
    expect(
      await problems(
        await create({
          starts_at: hours(1),
          ends_at: hours(2),
          match: { integration_ids: ['0b5c8a4e-8f51-4d5e-9a39-2f3c1e6d7a10'] },
        }),
      ),
    ).toEqual([{ path: 'match.integration_ids[0]', message: 'no integration has this id' }]);
    expect((await list()).body.maintenance_windows).toEqual([]);
  });

  it('caps a window at 7 days, saying why and what to do instead, and stores nothing', async () => {
    const week = 7 * 24;
    const [problem] = await problems(await create({ starts_at: hours(-1), ends_at: hours(week) }));
    expect(problem).toEqual({ path: 'ends_at', message: expect.stringContaining('at most 7 days') });
    expect(problem!.message).toMatch(/disable its integration/);
    expect(problem!.message).toMatch(/routing rule that suppresses/);
    expect((await list()).body.maintenance_windows).toEqual([]);
    // Exactly 7 days is allowed.
    const start = new Date(Date.now() + 3600_000);
    const end = new Date(start.getTime() + week * 3600_000);
    await created({ starts_at: start.toISOString(), ends_at: end.toISOString() });
  });

  it('accepts integration_ids that name integrations', async () => {
    const [integration] = await runtime.sql<{ id: string }[]>`
      insert into integrations (name, type, key) values ('Prometheus', 'alertmanager', ${`k-${Date.now()}`})
      returning id`;
    const window = await created({
      starts_at: hours(1),
      ends_at: hours(2),
      match: { integration_ids: [integration!.id], labels: { env: '*' } },
    });
    expect(window.match).toEqual({ integration_ids: [integration!.id], labels: { env: '*' } });
  });

  it('lets viewers read, and members and admins schedule and delete', async () => {
    expect((await list('', viewer.token)).status).toBe(200);
    const window = { starts_at: hours(1), ends_at: hours(2) };
    expect((await create(window, viewer.token)).status).toBe(403);
    const byAdmin = await bodyOf(await create(window, admin.token));
    expect(byAdmin.created_by).toBe(admin.id);
    expect((await api('DELETE', `${PATH}/${byAdmin.id}`, { token: viewer.token })).status).toBe(403);
    expect((await api('DELETE', `${PATH}/${byAdmin.id}`, { token: member.token })).status).toBe(204);
    expect((await api('GET', PATH)).status).toBe(401);
  });

  it('removes a scheduled or ended window; 404 for one that does not exist', async () => {
    const scheduled = await created({ starts_at: hours(1), ends_at: hours(2) });
    const ended = await created({ starts_at: hours(-2), ends_at: hours(-1) });
    for (const { id } of [scheduled, ended]) {
      expect((await api('DELETE', `${PATH}/${id}`, { token: member.token })).status).toBe(204);
      expect((await api('DELETE', `${PATH}/${id}`, { token: member.token })).status).toBe(404);
    }
    expect((await list()).body.maintenance_windows).toEqual([]);
    expect((await api('DELETE', `${PATH}/not-a-uuid`, { token: member.token })).status).toBe(404);
  });

  it('ends an active window on DELETE and opens incidents for the alerts it held', async () => {
    const window = await created({
      starts_at: hours(-1),
      ends_at: hours(1),
      match: { labels: { team: 'db' } },
    });
    const input = {
      title: 'Replication lag',
      description: null,
      severity: 'critical' as const,
      status: 'firing' as const,
      externalId: `lag-${Date.now()}`,
      fingerprint: null,
      source: 'prometheus',
      labels: { team: 'db' },
      annotations: {},
      startedAt: new Date(),
      endedAt: null,
    };
    expect(await recordAlerts(runtime.ctx, 'generic', [input])).toMatchObject({ suppressed: 1 });
    const alertsNow = async () =>
      (await bodyOf(await api('GET', '/api/v1/alerts', { token: viewer.token }))).alerts.filter(
        (a: JsonBody) => a.external_id === input.externalId,
      );
    expect(await alertsNow()).toEqual([
      expect.objectContaining({ suppressed_by: 'maintenance', incident_id: null }),
    ]);
    expect((await bodyOf(await api('GET', '/api/v1/incidents', { token: viewer.token }))).incidents).toEqual(
      [],
    );

    expect((await api('DELETE', `${PATH}/${window.id}`, { token: member.token })).status).toBe(204);
    const [alert] = await alertsNow();
    expect(alert).toMatchObject({ suppressed_by: null, incident_id: expect.any(String) });
    const incidents = (await bodyOf(await api('GET', '/api/v1/incidents', { token: viewer.token })))
      .incidents;
    expect(incidents).toEqual([expect.objectContaining({ id: alert.incident_id, title: 'Replication lag' })]);
    // Kept as the record of the maintenance, ended now.
    expect((await list()).body.maintenance_windows).toEqual([
      expect.objectContaining({ id: window.id, status: 'ended' }),
    ]);
  });
});
