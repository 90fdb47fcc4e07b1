// The generic webhook over HTTP, against the ingest app (docs/integrations/alert-webhooks.md#generic):
// intake, deduplication by external_id, resolving, bad requests, the signing secret, the JSON Schema
// route and concurrent senders, and what a user then sees of the alerts and incidents.
import { createHmac } from 'node:crypto';
import { bodyOf, type JsonBody } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  GENERIC,
  type IngestTestApp,
  ok,
  postGeneric,
  startIngestTestApp,
} from './ingest-test-app';
import { oneIncidentPerAlert } from './one-incident-per-alert';

let t: IngestTestApp;
beforeAll(async () => {
  t = await startIngestTestApp();
  await oneIncidentPerAlert(t.runtime.ctx);
});
afterAll(() => t.runtime.cleanup());

// Each test file has its own database, so a counter is enough to keep external_ids apart.
let seq = 0;
const uid = (name: string) => `${name}-${++seq}`;

describe('intake: POST /api/v1/webhooks/generic', () => {
  it('stores an alert with the defaults and opens an incident through the default rule', async () => {
    const before = Date.now();
    const id = uid('disk');
    const body = await ok(
      await postGeneric(t.app, {
        alerts: [{ title: 'Disk almost full on db-1', external_id: id, labels: { host: 'db-1' } }],
      }),
    );
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

    const [alert] = await t.incidentAlerts(result.incident_id);
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

    const incident = await t.incident(result.incident_id);
    expect(incident).toMatchObject({
      title: 'Disk almost full on db-1',
      severity: 'high',
      status: 'triggered',
      source: 'alert',
      alert_count: 1,
      all_alerts_resolved: false,
    });
    const timeline = await t.timeline(incident.id);
    expect(timeline.map((entry) => entry.type)).toEqual(['incident_created', 'alert_linked']);
    expect(timeline[1].data).toMatchObject({ alert_id: result.id, title: 'Disk almost full on db-1' });
    const { lines } = t.runtime.logs;
    expect(lines.some((l) => l.msg === 'alert received' && l.alert_id === result.id)).toBe(true);
    expect(lines.some((l) => l.msg === 'incident created' && l.incident_id === incident.id)).toBe(true);
  });

  it('maps severities: critical → critical, info stores without an incident (default rule)', async () => {
    const body = await ok(
      await postGeneric(t.app, {
        alerts: [
          { title: 'API down', severity: 'critical', external_id: uid('api') },
          { title: 'Cert expires in 30 days', severity: 'info', external_id: uid('cert') },
        ],
      }),
    );
    expect(body.incidents_created).toBe(1);
    expect((await t.incident(body.alerts[0].incident_id)).severity).toBe('critical');
    expect(body.alerts[1].incident_id).toBeNull();
  });

  it('updates an alert whose external_id it knows, without a second incident', async () => {
    const id = uid('cpu');
    const first = await ok(await postGeneric(t.app, { alerts: [{ title: 'CPU 91%', external_id: id }] }));
    const again = await ok(
      await postGeneric(t.app, {
        alerts: [{ title: 'CPU 97%', external_id: id, description: 'still climbing' }],
      }),
    );
    expect(again).toMatchObject({ received: 1, created: 0, updated: 1, incidents_created: 0 });
    expect(again.alerts[0]).toMatchObject({
      id: first.alerts[0].id,
      incident_id: first.alerts[0].incident_id,
    });
    const alerts = await t.incidentAlerts(first.alerts[0].incident_id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ title: 'CPU 97%', description: 'still climbing' });
  });

  it('answers an identical re-delivery without writing anything', async () => {
    const alert = {
      title: 'Same as ever',
      external_id: uid('same'),
      labels: { a: '1', b: '2' },
      annotations: { x: { y: 1 } },
    };
    // updated_at is not in any answer: read the row itself to see that nothing was written.
    const stamps = (id: string) => t.runtime.sql`select updated_at, received_at from alerts where id = ${id}`;
    const first = await ok(await postGeneric(t.app, { alerts: [alert] }));
    const [before] = await stamps(first.alerts[0].id);
    const again = await ok(await postGeneric(t.app, { alerts: [{ ...alert, labels: { b: '2', a: '1' } }] }));
    expect(again).toMatchObject({ created: 0, updated: 1, incidents_created: 0 });
    expect(again.alerts[0]).toEqual(first.alerts[0]);
    const [after] = await stamps(first.alerts[0].id);
    expect(after).toEqual(before);
  });

  it('creates a new alert for every POST without external_id', async () => {
    const flappy = { alerts: [{ title: 'Flappy check', severity: 'info' }] };
    const a = await ok(await postGeneric(t.app, flappy));
    const b = await ok(await postGeneric(t.app, flappy));
    expect(a.created).toBe(1);
    expect(b.created).toBe(1);
    expect(a.alerts[0].id).not.toBe(b.alerts[0].id);
  });

  it('resolves by external_id, flags the incident when all its alerts are resolved, and keeps it open', async () => {
    const id = uid('one');
    const resolvedLag = { alerts: [{ title: 'Replica lag', external_id: id, status: 'resolved' }] };
    const opened = await ok(
      await postGeneric(t.app, {
        alerts: [{ title: 'Replica lag', external_id: id, labels: { cluster: 'c1' } }],
      }),
    );
    const incidentId = opened.alerts[0].incident_id;
    const resolved = await ok(await postGeneric(t.app, resolvedLag));
    expect(resolved).toMatchObject({ created: 0, updated: 0, resolved: 1, incidents_created: 0 });
    expect(resolved.alerts[0]).toMatchObject({ status: 'resolved', incident_id: incidentId });

    const [alert] = await t.incidentAlerts(incidentId);
    expect(alert.status).toBe('resolved');
    expect(alert.ended_at).not.toBeNull();
    expect(await t.incident(incidentId)).toMatchObject({ status: 'triggered', all_alerts_resolved: true });
    expect(await t.timelineTypes(incidentId)).toEqual([
      'incident_created',
      'alert_linked',
      'alerts_all_resolved',
    ]);
    // Opening the channel posts the alert's link; the resolution's flag has a job of its own.
    expect(await t.pendingChatJobs(incidentId)).toEqual(['chat.open_channel', 'chat.post_timeline_entry']);

    // Resolving again changes nothing more.
    const repeat = await ok(await postGeneric(t.app, resolvedLag));
    expect(repeat).toMatchObject({ resolved: 0, updated: 1 });
    expect(await t.timeline(incidentId)).toHaveLength(3);
  });

  it('a resolved alert that fires again: same incident while it is open, a new one after it is resolved', async () => {
    const id = uid('flap');
    const firing = { alerts: [{ title: 'Queue backlog', external_id: id }] };
    const resolved = { alerts: [{ title: 'Queue backlog', external_id: id, status: 'resolved' }] };
    const [first] = (await ok(await postGeneric(t.app, firing))).alerts;
    await ok(await postGeneric(t.app, resolved));
    const refired = await ok(await postGeneric(t.app, firing));
    expect(refired).toMatchObject({ updated: 1, incidents_created: 0 });
    expect(refired.alerts[0]).toMatchObject({
      id: first.id,
      status: 'firing',
      incident_id: first.incident_id,
    });
    expect((await t.incident(first.incident_id)).all_alerts_resolved).toBe(false);

    expect(await t.resolveIncident(first.incident_id)).toMatchObject({ status: 'resolved' });
    await ok(await postGeneric(t.app, resolved));
    const again = await ok(await postGeneric(t.app, firing));
    expect(again.incidents_created).toBe(1);
    expect(again.alerts[0].incident_id).not.toBe(first.incident_id);
  });

  it('accepts a resolved alert it never saw, without an incident', async () => {
    const body = await ok(
      await postGeneric(t.app, {
        alerts: [{ title: 'Old news', external_id: uid('old'), status: 'resolved' }],
      }),
    );
    expect(body).toMatchObject({ created: 1, incidents_created: 0 });
    expect(body.alerts[0]).toMatchObject({ status: 'resolved', incident_id: null });
  });

  it('handles the same external_id twice in one batch in order', async () => {
    const id = uid('batch');
    const body = await ok(
      await postGeneric(t.app, {
        alerts: [
          { title: 'Batch twin', external_id: id },
          { title: 'Batch twin', external_id: id, status: 'resolved' },
        ],
      }),
    );
    expect(body).toMatchObject({ received: 2, created: 1, resolved: 1, incidents_created: 1 });
    expect(body.alerts[0].id).toBe(body.alerts[1].id);
    expect(body.alerts[1].status).toBe('resolved');
  });
});

describe('bad requests store nothing', () => {
  // Every alert the database holds, whatever its source: a refused request must add none.
  const count = async () => (await t.runtime.sql`select count(*)::int as n from alerts`)[0]!.n;

  it('refuses a batch with one invalid alert, naming it, and stores none of it', async () => {
    const before = await count();
    const body = await expectError(
      await postGeneric(t.app, {
        alerts: [
          { title: 'fine', external_id: uid('fine') },
          { description: 'no title' },
          { title: 'bad severity', severity: 'urgent' },
        ],
      }),
      400,
      'validation_failed',
    );
    const paths = body.error.details.map((d: JsonBody) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['alerts[1].title', 'alerts[2].severity']));
    expect(await count()).toBe(before);
  });

  it('refuses 0 and 1001 alerts, bad JSON, other content types and bodies over 1 MiB', async () => {
    const before = await count();
    expect((await postGeneric(t.app, { alerts: [] })).status).toBe(400);
    const many = Array.from({ length: 1001 }, (_, i) => ({ title: `a${i}` }));
    expect((await postGeneric(t.app, { alerts: many })).status).toBe(400);
    expect((await postGeneric(t.app, '{"alerts": [')).status).toBe(400);
    const plain = await postGeneric(t.app, JSON.stringify({ alerts: [{ title: 'x' }] }), {
      'content-type': 'text/plain',
    });
    expect(plain.status).toBe(415);
    await expectError(
      await postGeneric(t.app, { alerts: [{ title: 'big', description: 'x'.repeat(1024 * 1024) }] }),
      413,
      'payload_too_large',
    );
    expect(await count()).toBe(before);
  });

  it('accepts up to 1 000 alerts in one request (just under 1 MiB)', async () => {
    const batch = Array.from({ length: 1000 }, (_, i) => ({
      title: `bulk ${i}`,
      severity: 'info',
      external_id: uid('b'),
    }));
    expect(await ok(await postGeneric(t.app, { alerts: batch }))).toMatchObject({
      received: 1000,
      created: 1000,
    });
  });
});

describe('long texts', () => {
  it('stores an alert whose description is over 10 000 characters, clipped with a visible …', async () => {
    const id = uid('long');
    const body = await ok(
      await postGeneric(t.app, {
        alerts: [
          {
            title: 'Stack trace attached',
            description: 'x'.repeat(20_000),
            external_id: id,
            source: 'long-sender',
          },
        ],
      }),
    );
    expect(body).toMatchObject({ received: 1, created: 1 });
    const [stored] = (await t.alertsOf('long-sender')).filter((a) => a.external_id === id);
    expect(stored!.description).toHaveLength(10_000);
    expect(stored!.description.endsWith('…')).toBe(true);
  });
});

describe('signing secret', () => {
  it('when set, requires X-Service-Signature = sha256=<hmac of the raw body>', async () => {
    const secret = 'generic-webhook-signing-secret';
    const settings = await t.putSetting('generic-webhook', { signing_secret: secret });
    expect(settings.generic_webhook).toEqual({ signing_secret_set: true });
    expect(JSON.stringify(settings)).not.toContain(secret);

    const raw = JSON.stringify({ alerts: [{ title: 'signed', external_id: uid('signed') }] });
    const sign = (body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    const send = (headers: Record<string, string>) => postGeneric(t.app, raw, headers);

    await expectError(await send({}), 401, 'invalid_signature');
    expect((await send({ 'x-service-signature': sign(`${raw} `) })).status).toBe(401);
    expect((await send({ 'x-service-signature': sign(raw).toUpperCase() })).status).toBe(401);
    await ok(await send({ 'x-service-signature': sign(raw) }));
    expect(t.runtime.logs.messages()).toContain('invalid_signature');

    const cleared = await t.putSetting('generic-webhook', { signing_secret: null });
    expect(cleared.generic_webhook).toEqual({ signing_secret_set: false });
    await ok(await send({}));
  });

  it('accepts a timestamped signature of "<timestamp>.<body>" within 5 minutes, and refuses replays', async () => {
    const secret = 'generic-webhook-timestamp-secret';
    await t.putSetting('generic-webhook', { signing_secret: secret });
    try {
      const externalId = uid('stamped');
      const raw = JSON.stringify({
        alerts: [{ title: 'stamped', external_id: externalId, source: 'stamped-sender' }],
      });
      const hmac = (message: string) =>
        `sha256=${createHmac('sha256', secret).update(message).digest('hex')}`;
      const stamped = (secondsAgo: number) => {
        const timestamp = String(Math.floor(Date.now() / 1000) - secondsAgo);
        return { 'x-service-timestamp': timestamp, 'x-service-signature': hmac(`${timestamp}.${raw}`) };
      };
      const send = (headers: Record<string, string>) => postGeneric(t.app, raw, headers);

      // A request captured six minutes ago, replayed as it was: refused, and nothing is stored.
      await expectError(await send(stamped(6 * 60)), 401, 'invalid_signature');
      await expectError(await send(stamped(-6 * 60)), 401, 'invalid_signature');
      // The timestamp is part of what is signed: moving it forward breaks the signature.
      const old = stamped(6 * 60);
      const moved = { ...old, 'x-service-timestamp': String(Math.floor(Date.now() / 1000)) };
      await expectError(await send(moved), 401, 'invalid_signature');
      // The plain signature does not pass with a timestamp header beside it, nor a malformed timestamp.
      await expectError(
        await send({ 'x-service-timestamp': 'yesterday', 'x-service-signature': hmac(raw) }),
        401,
        'invalid_signature',
      );
      expect((await t.alertsOf('stamped-sender')).filter((a) => a.external_id === externalId)).toEqual([]);

      await ok(await send(stamped(60)));
      expect((await t.alertsOf('stamped-sender')).filter((a) => a.external_id === externalId)).toHaveLength(
        1,
      );
      // Senders signing the body alone keep working.
      await ok(await send({ 'x-service-signature': hmac(raw) }));
    } finally {
      await t.putSetting('generic-webhook', { signing_secret: null });
    }
  });
});

describe('GET /api/v1/webhooks/generic/schema', () => {
  it('publishes the JSON Schema of its body, generated from the validating schema', async () => {
    const res = await t.app.request(`${GENERIC}/schema`);
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

describe('concurrency', () => {
  it('stores one alert and opens one incident for the same external_id posted ten times at once', async () => {
    const id = uid('storm');
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => postGeneric(t.app, { alerts: [{ title: 'Storm', external_id: id }] })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    const bodies = await Promise.all(responses.map(bodyOf));
    expect(bodies.reduce((sum, b) => sum + b.created, 0)).toBe(1);
    expect(bodies.reduce((sum, b) => sum + b.incidents_created, 0)).toBe(1);
    const rows = await t.runtime.sql`select incident_id from alerts where external_id = ${id}`;
    expect(rows).toHaveLength(1);
    expect(new Set(bodies.map((b) => b.alerts[0].incident_id))).toEqual(new Set([rows[0]!.incident_id]));
  });

  it('lets batches that share alerts in opposite orders both succeed', async () => {
    const keys = Array.from({ length: 20 }, () => uid('cross'));
    const forward = { alerts: keys.map((k) => ({ title: 'cross', external_id: k })) };
    const backward = { alerts: [...forward.alerts].reverse() };
    const responses = await Promise.all(
      [forward, backward, forward, backward].map((body) => postGeneric(t.app, body)),
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const [row] = await t.runtime.sql`select count(*)::int as n from alerts where external_id = any(${keys})`;
    expect(row!.n).toBe(20);
    const [incidents] = await t.runtime.sql`
      select count(distinct incident_id)::int as n from alerts where external_id = any(${keys})`;
    expect(incidents!.n).toBe(20);
  });
});
