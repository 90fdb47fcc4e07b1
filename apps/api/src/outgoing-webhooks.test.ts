import { oneUserPerRole, startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import { bodyOf, type TestClient } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

// `/api/v1/outgoing-webhooks` (docs/api.md#outgoing-webhooks). Delivery itself is tested in apps/worker.
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

const path = '/api/v1/outgoing-webhooks';
const valid = {
  name: 'Status page',
  url: 'https://status.example/hooks/firebreak',
  events: ['incident.resolved', 'incident.created'],
  secret: 'a-secret-of-at-least-16',
  enabled: true,
};
const create = (body: unknown, token = admin.token) => api('POST', path, { token, body });

async function issues(res: Response): Promise<Array<{ path: string; message: string }>> {
  expect(res.status).toBe(400);
  const { error } = await bodyOf(res);
  expect(error.code).toBe('validation_failed');
  return error.details;
}

describe('outgoing webhooks', () => {
  it('creates one: the secret is write-only, events are listed in a fixed order', async () => {
    const res = await create(valid);
    expect(res.status).toBe(201);
    const created = await bodyOf(res);
    expect(created).toEqual({
      id: expect.any(String),
      name: 'Status page',
      url: 'https://status.example/hooks/firebreak',
      events: ['incident.created', 'incident.resolved'],
      has_secret: true,
      enabled: true,
      created_at: expect.any(String),
      updated_at: created.created_at,
    });
    const list = await bodyOf(await api('GET', path, { token: admin.token }));
    expect(list.outgoing_webhooks.find((w: { id: string }) => w.id === created.id)).toEqual(created);
    expect(JSON.stringify(list)).not.toContain(valid.secret);
    expect(runtime.logs.messages()).toContain('outgoing webhook created');
    expect(JSON.stringify(runtime.logs.lines)).not.toContain(valid.secret);
  });

  it('changes one: a PATCH keeps what it does not name, and `secret: null` removes the secret', async () => {
    const { id } = await bodyOf(await create(valid));
    const renamed = await api('PATCH', `${path}/${id}`, { token: admin.token, body: { name: 'Renamed' } });
    expect(renamed.status).toBe(200);
    expect(await bodyOf(renamed)).toMatchObject({ name: 'Renamed', url: valid.url, has_secret: true });
    const cleared = await api('PATCH', `${path}/${id}`, {
      token: admin.token,
      body: { secret: null, enabled: false, events: ['incident.updated'] },
    });
    expect(await bodyOf(cleared)).toMatchObject({
      name: 'Renamed',
      has_secret: false,
      enabled: false,
      events: ['incident.updated'],
    });
  });

  it('deletes one, and its delivery log with it', async () => {
    const { id } = await bodyOf(await create({ ...valid, secret: undefined }));
    const log = await api('GET', `${path}/${id}/deliveries`, { token: admin.token });
    expect(await bodyOf(log)).toEqual({ deliveries: [] });
    expect((await api('DELETE', `${path}/${id}`, { token: admin.token })).status).toBe(204);
    for (const res of [
      await api('DELETE', `${path}/${id}`, { token: admin.token }),
      await api('PATCH', `${path}/${id}`, { token: admin.token, body: { name: 'x' } }),
      await api('GET', `${path}/${id}/deliveries`, { token: admin.token }),
    ]) {
      expect(res.status).toBe(404);
      expect((await bodyOf(res)).error.code).toBe('not_found');
    }
  });

  it('shows the delivery log newest first, `limit` at most 200', async () => {
    const { id } = await bodyOf(await create({ ...valid, events: ['incident.created'] }));
    for (const title of ['One', 'Two', 'Three']) {
      await api('POST', '/api/v1/incidents', { token: member.token, body: { title, severity: 'low' } });
    }
    const res = await api('GET', `${path}/${id}/deliveries?limit=2`, { token: admin.token });
    const { deliveries } = await bodyOf(res);
    expect(deliveries).toHaveLength(2);
    expect(deliveries[0]).toEqual({
      id: expect.any(String),
      event: 'incident.created',
      incident_id: expect.any(String),
      status: 'pending',
      attempts: 0,
      last_status_code: null,
      last_error: null,
      last_duration_ms: null,
      created_at: expect.any(String),
      delivered_at: null,
      next_attempt_at: expect.any(String),
    });
    const newest = await bodyOf(await api('GET', '/api/v1/incidents?limit=1', { token: admin.token }));
    expect(deliveries[0].incident_id).toBe(newest.incidents[0].id);
    const paths = (
      await issues(await api('GET', `${path}/${id}/deliveries?limit=201`, { token: admin.token }))
    ).map((d) => d.path);
    expect(paths).toEqual(['limit']);
  });

  it('is for admins only, reads included', async () => {
    const { id } = await bodyOf(await create(valid));
    for (const token of [member.token, viewer.token]) {
      for (const res of [
        await api('GET', path, { token }),
        await create(valid, token),
        await api('PATCH', `${path}/${id}`, { token, body: { name: 'x' } }),
        await api('DELETE', `${path}/${id}`, { token }),
        await api('GET', `${path}/${id}/deliveries`, { token }),
      ]) {
        expect(res.status).toBe(403);
        expect((await bodyOf(res)).error.code).toBe('forbidden');
      }
    }
    expect((await api('GET', path)).status).toBe(401);
  });

  it('refuses a bad body with every problem, and stores nothing', async () => {
    const before = (await bodyOf(await api('GET', path, { token: admin.token }))).outgoing_webhooks.length;
    const problems = await issues(
      await create({ name: ' ', url: 'ftp://files.example/x', events: [], secret: 'short', enabled: 'yes' }),
    );
    expect(problems.map((p) => p.path).sort()).toEqual(['enabled', 'events', 'name', 'secret', 'url']);
    expect(
      (await issues(await create({ ...valid, events: ['incident.deleted'] }))).map((p) => p.path),
    ).toEqual(['events[0]']);
    expect(await issues(await create({ ...valid, url: 'https://user:pass@status.example/' }))).toEqual([
      { path: 'url', message: 'must not carry credentials; set a secret instead' },
    ]);
    expect((await issues(await create({ ...valid, url: 'not a url' })))[0]!.path).toBe('url');
    expect((await issues(await create({ name: 'Only a name' }))).map((p) => p.path).sort()).toEqual([
      'events',
      'url',
    ]);
    const { id } = await bodyOf(await create(valid));
    expect(
      (await issues(await api('PATCH', `${path}/${id}`, { token: admin.token, body: {} })))[0]!.path,
    ).toBe('');
    const after = (await bodyOf(await api('GET', path, { token: admin.token }))).outgoing_webhooks.length;
    expect(after).toBe(before + 1);
  });
});
