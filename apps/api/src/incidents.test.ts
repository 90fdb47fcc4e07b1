import { outbox } from '@firebreak/db';
import {
  createTestUser,
  oneUserPerRole,
  startTestApp,
  type TestRuntime,
  type TestUser,
} from '@firebreak/runtime/testing';
import { bodyOf, type TestClient } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

let runtime: TestRuntime;
let api: TestClient;
let member: TestUser;
let viewer: TestUser;
let lead: TestUser;

beforeAll(async () => {
  ({
    runtime,
    api,
    users: { member, viewer, lead },
  } = await startTestApp(createApp, {
    users: { member: oneUserPerRole.member, viewer: 'viewer', lead: { role: 'member', name: 'Lee Lead' } },
  }));
});
afterAll(() => runtime.cleanup());

async function open(body: Record<string, unknown> = {}) {
  const res = await api('POST', '/api/v1/incidents', {
    token: member.token,
    body: { title: 'Checkout is down', severity: 'critical', ...body },
  });
  expect(res.status).toBe(201);
  return bodyOf(res);
}
const patch = (id: string, body: unknown, token = member.token) =>
  api('PATCH', `/api/v1/incidents/${id}`, { token, body });
async function timelineOf(id: string) {
  return (await bodyOf(await api('GET', `/api/v1/incidents/${id}/timeline`, { token: viewer.token })))
    .entries;
}
async function outboxOf(id: string) {
  const rows = await outbox.listPendingOutbox(runtime.sql, 10_000);
  return rows
    .filter((row) => row.ordering_key === id)
    .map((row) => ({ job: row.job_name, payload: row.payload }));
}

describe('POST /api/v1/incidents', () => {
  it('opens a triggered incident with all its fields, a timeline entry and a queued channel', async () => {
    const incident = await open({ description: 'Payments fail with 502' });
    expect(incident).toMatchObject({
      title: 'Checkout is down',
      description: 'Payments fail with 502',
      severity: 'critical',
      status: 'triggered',
      acknowledged_at: null,
      resolved_at: null,
      commander: null,
      chat_channel: null,
      escalation_policy_id: null,
      alert_count: 0,
      all_alerts_resolved: false,
      mttr_seconds: null,
      source: 'manual',
    });
    expect(incident.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(incident.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Number.isInteger(incident.number)).toBe(true);

    const entries = await timelineOf(incident.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      type: 'incident_created',
      incident_id: incident.id,
      actor: { type: 'user', id: member.id, name: 'Mia Member' },
      data: { title: 'Checkout is down', severity: 'critical', source: 'manual' },
    });
    expect(await outboxOf(incident.id)).toEqual([
      { job: 'chat.open_channel', payload: { incident_id: incident.id } },
    ]);
    expect(
      runtime.logs.lines.some((l) => l.msg === 'incident created' && l.incident_id === incident.id),
    ).toBe(true);
  });

  it('names a commander when asked', async () => {
    const incident = await open({ commander_id: lead.id });
    expect(incident.commander).toEqual({ id: lead.id, name: 'Lee Lead', email: lead.email });
    const types = (await timelineOf(incident.id)).map((e: { type: string }) => e.type);
    expect(types).toEqual(['incident_created', 'commander_assigned']);
  });

  it('refuses invalid input with paths, and stores nothing', async () => {
    const before = await runtime.sql`select count(*)::int as n from incidents`;
    const res = await api('POST', '/api/v1/incidents', {
      token: member.token,
      body: { title: '   ', severity: 'sev1', commander_id: 'nobody' },
    });
    expect(res.status).toBe(400);
    const details = (await bodyOf(res)).error.details.map((d: { path: string }) => d.path).sort();
    expect(details).toEqual(['commander_id', 'severity', 'title']);
    const unknownLead = await api('POST', '/api/v1/incidents', {
      token: member.token,
      body: { title: 'x', severity: 'low', commander_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknownLead.status).toBe(400);
    expect((await bodyOf(unknownLead)).error.details).toEqual([
      { path: 'commander_id', message: 'no active user has this id' },
    ]);
    expect(await runtime.sql`select count(*)::int as n from incidents`).toEqual(before);
  });

  it('gives concurrent creations distinct, increasing numbers', async () => {
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => open({ title: `Parallel ${i}` })));
    const numbers = created.map((incident) => incident.number);
    expect(new Set(numbers).size).toBe(20);
  });

  it('is refused to viewers (403) and to anonymous callers (401)', async () => {
    const body = { title: 'x', severity: 'low' };
    expect((await api('POST', '/api/v1/incidents', { token: viewer.token, body })).status).toBe(403);
    expect((await api('POST', '/api/v1/incidents', { body })).status).toBe(401);
  });
});

describe('GET /api/v1/incidents/{id}', () => {
  it('finds an incident by UUID and by number', async () => {
    const incident = await open();
    for (const ref of [incident.id, String(incident.number)]) {
      const res = await api('GET', `/api/v1/incidents/${ref}`, { token: viewer.token });
      expect(res.status).toBe(200);
      expect((await bodyOf(res)).id).toBe(incident.id);
    }
  });

  it('answers 404 for unknown ids, numbers and garbage', async () => {
    for (const ref of ['00000000-0000-4000-8000-000000000000', '99999999', 'drop-table']) {
      const res = await api('GET', `/api/v1/incidents/${ref}`, { token: viewer.token });
      expect(res.status).toBe(404);
      expect((await bodyOf(res)).error.code).toBe('not_found');
    }
  });
});

describe('status transitions', () => {
  it('triggered → acknowledged → resolved, with timestamps, entries and MTTR', async () => {
    const t0 = new Date('2026-11-21T10:00:00.000Z');
    const realNow = runtime.ctx.now;
    try {
      runtime.ctx.now = () => t0;
      const incident = await open();
      runtime.ctx.now = () => new Date(t0.getTime() + 90_500);
      const acked = await bodyOf(await patch(incident.id, { status: 'acknowledged' }));
      expect(acked).toMatchObject({ status: 'acknowledged', acknowledged_at: '2026-11-21T10:01:30.500Z' });
      runtime.ctx.now = () => new Date(t0.getTime() + 42 * 60_000 + 17_900);
      const resolved = await bodyOf(await patch(incident.id, { status: 'resolved' }));
      expect(resolved).toMatchObject({
        status: 'resolved',
        resolved_at: '2026-11-21T10:42:17.900Z',
        mttr_seconds: 2537,
      });
      const statusEntries = (await timelineOf(incident.id)).filter(
        (e: { type: string }) => e.type === 'status_changed',
      );
      expect(statusEntries.map((e: { data: unknown }) => e.data)).toEqual([
        { from: 'triggered', to: 'acknowledged' },
        { from: 'acknowledged', to: 'resolved', mttr_seconds: 2537 },
      ]);
      // After the entry, the resolution is posted and then the channel renamed, in order
      // (docs/api.md#state-machine).
      const jobs = await outboxOf(incident.id);
      expect(jobs.map((j) => j.job)).toEqual([
        'chat.open_channel',
        'chat.post_timeline_entry',
        'chat.post_timeline_entry',
        'chat.mark_resolved',
      ]);
      expect(jobs[3]!.payload).toEqual({ incident_id: incident.id });
    } finally {
      runtime.ctx.now = realNow;
    }
  });

  it('triggered → resolved directly (bulk resolution)', async () => {
    const incident = await open();
    const res = await patch(incident.id, { status: 'resolved' });
    expect(res.status).toBe(200);
    const body = await bodyOf(res);
    expect(body).toMatchObject({ status: 'resolved', acknowledged_at: null });
    expect(body.mttr_seconds).toBeGreaterThanOrEqual(0);
  });

  it('refuses moves the state machine does not allow with 409, changing nothing', async () => {
    const acknowledged = await open({ severity: 'high' });
    await patch(acknowledged.id, { status: 'acknowledged' });
    const back = await patch(acknowledged.id, { status: 'triggered', severity: 'low' });
    expect(back.status).toBe(409);
    expect((await bodyOf(back)).error).toMatchObject({
      code: 'invalid_transition',
      details: { from: 'acknowledged', to: 'triggered' },
    });
    // The severity in the same request was not applied either.
    const after = await bodyOf(
      await api('GET', `/api/v1/incidents/${acknowledged.id}`, { token: viewer.token }),
    );
    expect(after).toMatchObject({ status: 'acknowledged', severity: 'high' });

    const resolved = await open();
    await patch(resolved.id, { status: 'resolved' });
    for (const status of ['triggered', 'acknowledged']) {
      const res = await patch(resolved.id, { status });
      expect(res.status).toBe(409);
      expect((await bodyOf(res)).error.code).toBe('invalid_transition');
    }
  });

  it('treats a PATCH to the current status as a no-op', async () => {
    const incident = await open();
    await patch(incident.id, { status: 'acknowledged' });
    const before = await timelineOf(incident.id);
    const again = await patch(incident.id, { status: 'acknowledged' });
    expect(again.status).toBe(200);
    expect((await bodyOf(again)).status).toBe('acknowledged');
    expect(await timelineOf(incident.id)).toEqual(before);
  });

  it('writes one status_changed entry for concurrent acknowledgements', async () => {
    const incident = await open();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => patch(incident.id, { status: 'acknowledged' })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const changes = (await timelineOf(incident.id)).filter(
      (e: { type: string }) => e.type === 'status_changed',
    );
    expect(changes).toHaveLength(1);
  });
});

describe('severity, commander, title', () => {
  it('records severity changes, and none for the same severity', async () => {
    const incident = await open({ severity: 'medium' });
    const changed = await bodyOf(await patch(incident.id, { severity: 'critical' }));
    expect(changed.severity).toBe('critical');
    await patch(incident.id, { severity: 'critical' });
    const entries = (await timelineOf(incident.id)).filter(
      (e: { type: string }) => e.type === 'severity_changed',
    );
    expect(entries.map((e: { data: unknown }) => e.data)).toEqual([{ from: 'medium', to: 'critical' }]);
    expect((await outboxOf(incident.id)).map((j) => j.job)).toEqual([
      'chat.open_channel',
      'chat.post_timeline_entry',
    ]);
  });

  it('keeps at most one commander: set, replace, clear', async () => {
    const incident = await open();
    expect((await bodyOf(await patch(incident.id, { commander_id: member.id }))).commander.id).toBe(
      member.id,
    );
    expect((await bodyOf(await patch(incident.id, { commander_id: lead.id }))).commander.id).toBe(lead.id);
    expect((await bodyOf(await patch(incident.id, { commander_id: null }))).commander).toBeNull();
    const entries = (await timelineOf(incident.id)).filter(
      (e: { type: string }) => e.type === 'commander_assigned',
    );
    expect(
      entries.map((e: { data: { commander: { id: string } | null; previous: { id: string } | null } }) => [
        e.data.commander?.id ?? null,
        e.data.previous?.id ?? null,
      ]),
    ).toEqual([
      [member.id, null],
      [lead.id, member.id],
      [null, lead.id],
    ]);
  });

  it('changes title and description', async () => {
    const incident = await open();
    const changed = await bodyOf(
      await patch(incident.id, { title: 'Checkout degraded', description: 'p95 8 s' }),
    );
    expect(changed).toMatchObject({ title: 'Checkout degraded', description: 'p95 8 s' });
  });

  it('refuses an empty PATCH, bad values, and viewers', async () => {
    const incident = await open();
    const empty = await patch(incident.id, {});
    expect(empty.status).toBe(400);
    expect((await bodyOf(empty)).error.code).toBe('validation_failed');
    const bad = await patch(incident.id, { status: 'closed', severity: 'urgent' });
    expect((await bodyOf(bad)).error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'severity',
      'status',
    ]);
    expect((await patch(incident.id, { status: 'acknowledged' }, viewer.token)).status).toBe(403);
  });

  it('seals a resolved incident: no severity or commander changes, no notes', async () => {
    const incident = await open();
    await patch(incident.id, { status: 'resolved' });
    for (const body of [{ severity: 'low' }, { commander_id: lead.id }]) {
      const res = await patch(incident.id, body);
      expect(res.status).toBe(409);
      expect((await bodyOf(res)).error.code).toBe('conflict');
    }
    const note = await api('POST', `/api/v1/incidents/${incident.id}/notes`, {
      token: member.token,
      body: { text: 'late thought' },
    });
    expect(note.status).toBe(409);
  });
});

describe('notes and the timeline', () => {
  it('adds notes as message entries, posted to the channel, in order', async () => {
    const incident = await open();
    for (const text of ['Rolled back deploy 412', 'Error rate back to normal']) {
      const res = await api('POST', `/api/v1/incidents/${incident.number}/notes`, {
        token: member.token,
        body: { text },
      });
      expect(res.status).toBe(201);
      expect(await bodyOf(res)).toMatchObject({
        type: 'message',
        data: { text },
        actor: { type: 'user', id: member.id },
      });
    }
    await patch(incident.id, { status: 'acknowledged' });
    const entries = await timelineOf(incident.id);
    expect(entries.map((e: { type: string }) => e.type)).toEqual([
      'incident_created',
      'message',
      'message',
      'status_changed',
    ]);
    const times = entries.map((e: { created_at: string }) => e.created_at);
    expect([...times].sort()).toEqual(times);
    expect((await outboxOf(incident.id)).filter((j) => j.job === 'chat.post_timeline_entry')).toHaveLength(3);
  });

  it('refuses an empty note', async () => {
    const incident = await open();
    const res = await api('POST', `/api/v1/incidents/${incident.id}/notes`, {
      token: member.token,
      body: { text: ' ' },
    });
    expect(res.status).toBe(400);
    expect((await bodyOf(res)).error.details).toEqual([{ path: 'text', message: 'must not be empty' }]);
  });

  it('names API keys as the actor', async () => {
    const admin = await createTestUser(runtime, 'admin', 'Ada Admin');
    const key = await bodyOf(
      await api('POST', '/api/v1/api-keys', { token: admin.token, body: { name: 'bulk resolver' } }),
    );
    const incident = await open();
    await patch(incident.id, { status: 'resolved' }, key.token);
    const entry = (await timelineOf(incident.id)).find((e: { type: string }) => e.type === 'status_changed');
    expect(entry.actor).toEqual({ type: 'user', id: admin.id, name: 'API key "bulk resolver"' });
  });
});
