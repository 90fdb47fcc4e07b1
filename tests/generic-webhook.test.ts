// The generic webhook end to end (docs/integrations/alert-webhooks.md#generic): intake, deduplication
// by external_id, resolving, bad requests, the signing secret and the alert list.
import { createHmac } from 'node:crypto';
import { outbox } from '@firebreak/db';
import { bodyOf } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server-app';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.runtime.cleanup());

const post = (alerts: unknown[], headers?: Record<string, string>) =>
  s.webhook('/api/v1/webhooks/generic', { alerts }, headers);
let seq = 0;
const uid = (name: string) => `${name}-${++seq}-${Date.now()}`;

describe('intake', () => {
  it('stores an alert with the defaults and opens an incident through the default rule', async () => {
    const before = Date.now();
    const id = uid('disk');
    const { status, body } = await post([
      { title: 'Disk almost full on db-1', external_id: id, labels: { host: 'db-1' } },
    ]);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      received: 1,
      created: 1,
      updated: 0,
      resolved: 0,
      suppressed: 0,
      incidents_created: 1,
    });
    const [result] = body.alerts;
    expect(result).toMatchObject({ external_id: id, status: 'firing' });

    const alert = (await s.get(`/api/v1/incidents/${result.incident_id}/alerts`)).alerts[0];
    expect(alert).toMatchObject({
      id: result.id,
      title: 'Disk almost full on db-1',
      description: null,
      severity: 'warning',
      status: 'firing',
      external_id: id,
      source: null,
      labels: { host: 'db-1' },
      annotations: {},
      fingerprint: null,
      ended_at: null,
      incident_id: result.incident_id,
    });
    expect(Date.parse(alert.started_at)).toBeGreaterThanOrEqual(before - 5);
    expect(alert.received_at).toBe(alert.started_at);

    const incident = await s.get(`/api/v1/incidents/${result.incident_id}`);
    expect(incident).toMatchObject({
      title: 'Disk almost full on db-1',
      severity: 'high',
      status: 'triggered',
      source: 'alert',
      alert_count: 1,
      all_alerts_resolved: false,
    });
    const timeline = (await s.get(`/api/v1/incidents/${incident.id}/timeline`)).entries;
    expect(timeline.map((e: { type: string }) => e.type)).toEqual(['incident_created', 'alert_linked']);
    expect(timeline[1].data).toMatchObject({ alert_id: result.id, title: 'Disk almost full on db-1' });
    expect(s.runtime.logs.lines.some((l) => l.msg === 'alert received' && l.alert_id === result.id)).toBe(
      true,
    );
    expect(
      s.runtime.logs.lines.some((l) => l.msg === 'incident created' && l.incident_id === incident.id),
    ).toBe(true);
  });

  it('maps severities: critical → critical, info stores without an incident (default rule)', async () => {
    const { body } = await post([
      { title: 'API down', severity: 'critical', external_id: uid('api') },
      { title: 'Cert expires in 30 days', severity: 'info', external_id: uid('cert') },
    ]);
    expect(body.incidents_created).toBe(1);
    expect((await s.get(`/api/v1/incidents/${body.alerts[0].incident_id}`)).severity).toBe('critical');
    expect(body.alerts[1].incident_id).toBeNull();
  });

  it('updates an alert whose external_id it knows, without a second incident', async () => {
    const id = uid('cpu');
    const first = (await post([{ title: 'CPU 91%', external_id: id }])).body;
    const again = (await post([{ title: 'CPU 97%', external_id: id, description: 'still climbing' }])).body;
    expect(again).toMatchObject({ received: 1, created: 0, updated: 1, incidents_created: 0 });
    expect(again.alerts[0]).toMatchObject({
      id: first.alerts[0].id,
      incident_id: first.alerts[0].incident_id,
    });
    const alerts = (await s.get(`/api/v1/incidents/${first.alerts[0].incident_id}/alerts`)).alerts;
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ title: 'CPU 97%', description: 'still climbing' });
  });

  it('answers an identical re-delivery without writing anything', async () => {
    const id = uid('same');
    const alert = {
      title: 'Same as ever',
      external_id: id,
      labels: { a: '1', b: '2' },
      annotations: { x: { y: 1 } },
    };
    const first = (await post([alert])).body;
    const [before] = await s.runtime
      .sql`select updated_at, received_at from alerts where id = ${first.alerts[0].id}`;
    const again = (await post([{ ...alert, labels: { b: '2', a: '1' } }])).body;
    expect(again).toMatchObject({ created: 0, updated: 1, incidents_created: 0 });
    expect(again.alerts[0]).toEqual(first.alerts[0]);
    const [after] = await s.runtime
      .sql`select updated_at, received_at from alerts where id = ${first.alerts[0].id}`;
    expect(after).toEqual(before);
  });

  it('creates a new alert for every POST without external_id', async () => {
    const a = (await post([{ title: 'Flappy check', severity: 'info' }])).body;
    const b = (await post([{ title: 'Flappy check', severity: 'info' }])).body;
    expect(a.created).toBe(1);
    expect(b.created).toBe(1);
    expect(a.alerts[0].id).not.toBe(b.alerts[0].id);
  });

  it('resolves by external_id, flags the incident when all its alerts are resolved, and keeps it open', async () => {
    const one = uid('one');
    const opened = (await post([{ title: 'Replica lag', external_id: one, labels: { cluster: 'c1' } }])).body;
    const incidentId = opened.alerts[0].incident_id;
    const resolved = (await post([{ title: 'Replica lag', external_id: one, status: 'resolved' }])).body;
    expect(resolved).toMatchObject({ created: 0, updated: 0, resolved: 1, incidents_created: 0 });
    expect(resolved.alerts[0]).toMatchObject({ status: 'resolved', incident_id: incidentId });

    const alert = (await s.get(`/api/v1/incidents/${incidentId}/alerts`)).alerts[0];
    expect(alert.status).toBe('resolved');
    expect(alert.ended_at).not.toBeNull();
    const incident = await s.get(`/api/v1/incidents/${incidentId}`);
    expect(incident).toMatchObject({ status: 'triggered', all_alerts_resolved: true });
    const types = (await s.get(`/api/v1/incidents/${incidentId}/timeline`)).entries.map(
      (e: { type: string }) => e.type,
    );
    expect(types).toEqual(['incident_created', 'alert_linked', 'alerts_all_resolved']);
    const jobs = (await outbox.listPendingOutbox(s.runtime.sql, 10_000)).filter(
      (r) => r.ordering_key === incidentId,
    );
    expect(jobs.map((j) => j.job_name)).toEqual([
      'chat.open_channel',
      'chat.post_timeline_entry',
      'chat.post_timeline_entry',
    ]);

    // Resolving again changes nothing more.
    const repeat = (await post([{ title: 'Replica lag', external_id: one, status: 'resolved' }])).body;
    expect(repeat).toMatchObject({ resolved: 0, updated: 1 });
    expect((await s.get(`/api/v1/incidents/${incidentId}/timeline`)).entries).toHaveLength(3);
  });

  it('a resolved alert that fires again: same incident while it is open, a new one after it is resolved', async () => {
    const id = uid('flap');
    const first = (await post([{ title: 'Queue backlog', external_id: id }])).body.alerts[0];
    await post([{ title: 'Queue backlog', external_id: id, status: 'resolved' }]);
    const refired = (await post([{ title: 'Queue backlog', external_id: id }])).body;
    expect(refired).toMatchObject({ updated: 1, incidents_created: 0 });
    expect(refired.alerts[0]).toMatchObject({
      id: first.id,
      status: 'firing',
      incident_id: first.incident_id,
    });
    expect((await s.get(`/api/v1/incidents/${first.incident_id}`)).all_alerts_resolved).toBe(false);

    await s.api('PATCH', `/api/v1/incidents/${first.incident_id}`, {
      token: s.admin.token,
      body: { status: 'resolved' },
    });
    await post([{ title: 'Queue backlog', external_id: id, status: 'resolved' }]);
    const again = (await post([{ title: 'Queue backlog', external_id: id }])).body;
    expect(again.incidents_created).toBe(1);
    expect(again.alerts[0].incident_id).not.toBe(first.incident_id);
  });

  it('accepts a resolved alert it never saw, without an incident', async () => {
    const { body } = await post([{ title: 'Old news', external_id: uid('old'), status: 'resolved' }]);
    expect(body).toMatchObject({ created: 1, incidents_created: 0 });
    expect(body.alerts[0]).toMatchObject({ status: 'resolved', incident_id: null });
  });

  it('handles the same external_id twice in one batch in order', async () => {
    const id = uid('batch');
    const { body } = await post([
      { title: 'Batch twin', external_id: id },
      { title: 'Batch twin', external_id: id, status: 'resolved' },
    ]);
    expect(body).toMatchObject({ received: 2, created: 1, resolved: 1, incidents_created: 1 });
    expect(body.alerts[0].id).toBe(body.alerts[1].id);
    expect(body.alerts[1].status).toBe('resolved');
  });
});

describe('bad requests store nothing', () => {
  const count = async () => (await s.runtime.sql`select count(*)::int as n from alerts`)[0]!.n;

  it('refuses a batch with one invalid alert, naming it, and stores none of it', async () => {
    const before = await count();
    const { status, body } = await post([
      { title: 'fine', external_id: uid('fine') },
      { description: 'no title' },
      { title: 'bad severity', severity: 'urgent' },
    ]);
    expect(status).toBe(400);
    expect(body.error.code).toBe('validation_failed');
    const paths = body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['alerts[1].title', 'alerts[2].severity']));
    expect(await count()).toBe(before);
  });

  it('refuses 0 and 1001 alerts, bad JSON, other content types and bodies over 1 MiB', async () => {
    expect((await post([])).status).toBe(400);
    const many = Array.from({ length: 1001 }, (_, i) => ({ title: `a${i}` }));
    expect((await post(many)).status).toBe(400);
    const broken = await s.api('POST', '/api/v1/webhooks/generic', { body: '{"alerts": [' });
    expect(broken.status).toBe(400);
    const plain = await s.api('POST', '/api/v1/webhooks/generic', {
      body: JSON.stringify({ alerts: [{ title: 'x' }] }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(plain.status).toBe(415);
    const huge = await post([{ title: 'big', description: 'x'.repeat(1024 * 1024) }]);
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('payload_too_large');
  });

  it('accepts up to 1 000 alerts in one request (just under 1 MiB)', async () => {
    const batch = Array.from({ length: 1000 }, (_, i) => ({
      title: `bulk ${i}`,
      severity: 'info',
      external_id: uid('b'),
    }));
    const { status, body } = await post(batch);
    expect(status).toBe(200);
    expect(body).toMatchObject({ received: 1000, created: 1000 });
  });
});

describe('signing secret', () => {
  it('when set, requires X-Service-Signature = sha256=<hmac of the raw body>', async () => {
    const secret = 'generic-webhook-signing-secret';
    const set = await s.api('PUT', '/api/v1/settings/integrations/generic-webhook', {
      token: s.admin.token,
      body: { signing_secret: secret },
    });
    expect(set.status).toBe(200);
    const settings = await s.get('/api/v1/settings');
    expect(settings.generic_webhook).toEqual({ signing_secret_set: true });
    expect(JSON.stringify(settings)).not.toContain(secret);

    const raw = JSON.stringify({ alerts: [{ title: 'signed', external_id: uid('signed') }] });
    const sign = (body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    const send = (headers: Record<string, string>) =>
      s.api('POST', '/api/v1/webhooks/generic', { body: raw, headers });

    const missing = await send({});
    expect(missing.status).toBe(401);
    expect((await bodyOf(missing)).error.code).toBe('invalid_signature');
    expect((await send({ 'x-service-signature': sign(`${raw} `) })).status).toBe(401);
    expect((await send({ 'x-service-signature': sign(raw).toUpperCase() })).status).toBe(401);
    expect((await send({ 'x-service-signature': sign(raw) })).status).toBe(200);
    expect(s.runtime.logs.messages()).toContain('invalid_signature');

    const cleared = await s.api('PUT', '/api/v1/settings/integrations/generic-webhook', {
      token: s.admin.token,
      body: { signing_secret: null },
    });
    expect(cleared.status).toBe(200);
    expect((await send({})).status).toBe(200);
  });

  it('is set by admins only and must be long enough', async () => {
    const member = await import('@firebreak/runtime/testing').then((m) =>
      m.createTestUser(s.runtime, 'member'),
    );
    const put = (token: string, signing_secret: unknown) =>
      s.api('PUT', '/api/v1/settings/integrations/generic-webhook', { token, body: { signing_secret } });
    expect((await put(member.token, 'a-long-enough-secret')).status).toBe(403);
    expect((await put(s.admin.token, 'short')).status).toBe(400);
  });
});

describe('the webhook', () => {
  it('needs no token and is never rate limited', async () => {
    const strict = await startTestServer({ RATE_LIMIT_REQUESTS_PER_MINUTE: '2' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        statuses.push(
          (await strict.webhook('/api/v1/webhooks/generic', { alerts: [{ title: `t${i}` }] })).status,
        );
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
      const api = [];
      for (let i = 0; i < 3; i++)
        api.push((await strict.api('GET', '/api/v1/alerts', { token: strict.admin.token })).status);
      expect(api).toEqual([200, 200, 429]);
    } finally {
      await strict.runtime.cleanup();
    }
  });

  it('publishes the JSON Schema of its body, generated from the validating schema', async () => {
    const res = await s.api('GET', '/api/v1/webhooks/generic/schema');
    expect(res.status).toBe(200);
    const schema = await bodyOf(res);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.required).toEqual(['alerts']);
    const item = schema.properties.alerts.items;
    expect(item.required).toEqual(['title']);
    expect(Object.keys(item.properties).sort()).toEqual(
      [
        'annotations',
        'description',
        'external_id',
        'labels',
        'severity',
        'source',
        'started_at',
        'status',
        'title',
      ].sort(),
    );
    expect(schema.properties.alerts.maxItems).toBe(1000);
  });
});

describe('GET /api/v1/alerts', () => {
  it('lists newest received first, filters by status and source, pages with a cursor', async () => {
    const source = uid('lister');
    for (let i = 0; i < 5; i++) {
      await post([{ title: `list ${i}`, severity: 'info', source, status: i % 2 ? 'resolved' : 'firing' }]);
    }
    const all = await s.get(`/api/v1/alerts?source=${source}&sort=-received_at`);
    expect(all.alerts.map((a: { title: string }) => a.title)).toEqual([
      'list 4',
      'list 3',
      'list 2',
      'list 1',
      'list 0',
    ]);
    const firing = await s.get(`/api/v1/alerts?source=${source}&status=firing`);
    expect(firing.alerts).toHaveLength(3);
    const page1 = await s.get(`/api/v1/alerts?source=${source}&limit=2`);
    const page2 = await s.get(`/api/v1/alerts?source=${source}&limit=2&cursor=${page1.next_cursor}`);
    const page3 = await s.get(`/api/v1/alerts?source=${source}&limit=2&cursor=${page2.next_cursor}`);
    expect(
      [...page1.alerts, ...page2.alerts, ...page3.alerts].map((a: { title: string }) => a.title),
    ).toEqual(all.alerts.map((a: { title: string }) => a.title));
    expect(page3.next_cursor).toBeNull();
    const bad = await s.api('GET', '/api/v1/alerts?sort=received_at', { token: s.admin.token });
    expect(bad.status).toBe(400);
  });
});

describe('concurrency', () => {
  it('stores one alert and opens one incident for the same external_id posted ten times at once', async () => {
    const id = uid('storm');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => post([{ title: 'Storm', external_id: id }])),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(results.reduce((sum, r) => sum + r.body.created, 0)).toBe(1);
    expect(results.reduce((sum, r) => sum + r.body.incidents_created, 0)).toBe(1);
    const rows = await s.runtime.sql`select incident_id from alerts where external_id = ${id}`;
    expect(rows).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.alerts[0].incident_id))).toEqual(
      new Set([rows[0]!.incident_id]),
    );
  });

  it('lets batches that share alerts in opposite orders both succeed', async () => {
    const keys = Array.from({ length: 20 }, () => uid('cross'));
    const forward = keys.map((k) => ({ title: 'cross', external_id: k }));
    const backward = [...forward].reverse();
    const results = await Promise.all([post(forward), post(backward), post(forward), post(backward)]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const [row] = await s.runtime.sql`select count(*)::int as n from alerts where external_id = any(${keys})`;
    expect(row!.n).toBe(20);
    const [incidents] = await s.runtime.sql`
      select count(distinct incident_id)::int as n from alerts where external_id = any(${keys})`;
    expect(incidents!.n).toBe(20);
  });
});
