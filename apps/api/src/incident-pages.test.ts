// An incident's timeline and alerts come a page at a time (docs/api.md#incidents): a long incident
// must not turn one request into tens of thousands of rows.
import { oneUserPerRole, startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import { bodyOf, type JsonBody, type TestClient } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

let runtime: TestRuntime;
let api: TestClient;
let member: TestUser;
let viewer: TestUser;
let incidentId: string;

const NOTES = 130;
const ALERTS = 7;

beforeAll(async () => {
  ({
    runtime,
    api,
    users: { member, viewer },
  } = await startTestApp(createApp, { users: { member: oneUserPerRole.member, viewer: 'viewer' } }));
  const created = await api('POST', '/api/v1/incidents', {
    token: member.token,
    body: { title: 'A long night', severity: 'high' },
  });
  incidentId = (await bodyOf(created)).id;
  await runtime.sql`
    insert into timeline_entries (incident_id, type, actor_type, actor_name, data, created_at)
    select ${incidentId}, 'message', 'user', 'Mo', jsonb_build_object('text', 'note ' || n), now()
    from generate_series(1, ${NOTES}) as n`;
  await runtime.sql`
    insert into alerts (integration, title, started_at, received_at, incident_id)
    select 'generic', 'alert ' || n, now(), now() - make_interval(secs => n), ${incidentId}
    from generate_series(1, ${ALERTS}) as n`;
});
afterAll(() => runtime.cleanup());

const get = async (path: string) => {
  const res = await api('GET', path, { token: viewer.token });
  return { status: res.status, body: await bodyOf(res) };
};

async function walk(
  path: string,
  key: string,
  limit?: number,
): Promise<{ pages: number; items: JsonBody[] }> {
  const items: JsonBody[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const params = new URLSearchParams();
    if (limit) params.set('limit', String(limit));
    if (cursor) params.set('cursor', cursor);
    const { status, body } = await get(`${path}?${params}`);
    expect(status).toBe(200);
    items.push(...body[key]);
    cursor = body.next_cursor;
    pages += 1;
  } while (cursor);
  return { pages, items };
}

describe('GET /api/v1/incidents/{id}/timeline', () => {
  it('answers 100 entries by default with a next_cursor, and the rest on the next page', async () => {
    const first = await get(`/api/v1/incidents/${incidentId}/timeline`);
    expect(first.body.entries).toHaveLength(100);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const { pages, items } = await walk(`/api/v1/incidents/${incidentId}/timeline`, 'entries');
    expect(pages).toBe(2);
    // incident_created first, then every note once, oldest first.
    expect(items).toHaveLength(NOTES + 1);
    expect(items[0].type).toBe('incident_created');
    expect(items.slice(1).map((e) => e.data.text)).toEqual(
      Array.from({ length: NOTES }, (_, i) => `note ${i + 1}`),
    );
  });

  it('takes limit up to 500, and refuses more or a cursor it did not give', async () => {
    const { pages, items } = await walk(`/api/v1/incidents/${incidentId}/timeline`, 'entries', 40);
    expect(pages).toBe(4);
    expect(new Set(items.map((e) => e.id)).size).toBe(NOTES + 1);
    expect((await get(`/api/v1/incidents/${incidentId}/timeline?limit=500`)).body.next_cursor).toBeNull();
    for (const query of ['limit=501', 'limit=0', 'cursor=not-a-cursor']) {
      const { status, body } = await get(`/api/v1/incidents/${incidentId}/timeline?${query}`);
      expect(status).toBe(400);
      expect(body.error.code).toBe('validation_failed');
    }
  });
});

describe('GET /api/v1/incidents/{id}/alerts', () => {
  const titles = (items: JsonBody[]) => items.map((a: { title: string }) => a.title);

  it('pages every alert once, in a fixed order', async () => {
    const first = await get(`/api/v1/incidents/${incidentId}/alerts?limit=3`);
    expect(first.body.alerts).toHaveLength(3);
    const { pages, items } = await walk(`/api/v1/incidents/${incidentId}/alerts`, 'alerts', 3);
    expect(pages).toBe(3);
    expect(titles(items).sort()).toEqual(Array.from({ length: ALERTS }, (_, i) => `alert ${i + 1}`).sort());
    expect(titles(items.slice(0, 3))).toEqual(titles(first.body.alerts));
    expect((await get(`/api/v1/incidents/${incidentId}/alerts`)).body.next_cursor).toBeNull();
    expect((await get(`/api/v1/incidents/${incidentId}/alerts?limit=501`)).status).toBe(400);
  });

  it('skips and repeats nothing while the alerts are delivered again between pages', async () => {
    const seen: JsonBody[] = [];
    let cursor: string | null = null;
    do {
      const params = new URLSearchParams({ limit: '2' });
      if (cursor) params.set('cursor', cursor);
      const { status, body } = await get(`/api/v1/incidents/${incidentId}/alerts?${params}`);
      expect(status).toBe(200);
      seen.push(...body.alerts);
      cursor = body.next_cursor;
      // Every alert of the incident arrives again, as a repeated delivery records it: `received_at`
      // moves to now (the order they were received in changes under the reader's feet).
      await runtime.sql`
        update alerts set received_at = clock_timestamp() - make_interval(secs => random()),
                          updated_at = clock_timestamp()
        where incident_id = ${incidentId}`;
    } while (cursor);
    expect(titles(seen).sort()).toEqual(Array.from({ length: ALERTS }, (_, i) => `alert ${i + 1}`).sort());
  });
});
