// Maintenance windows end to end (docs/api.md#maintenance-windows): a member schedules a window through the
// API, alerts arrive through the generic webhook while it is active, and the worker's release timer
// routes what still fires once it has ended — the first page goes out then, not before.
import { createTestUser, type TestUser } from '@firebreak/runtime/testing';
import { bodyOf, type JsonBody, waitFor } from '@firebreak/testing';
import { type RunningWorker, startWorker } from '@firebreak/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultTwoTierPolicy, firedSteps } from './support/escalation';
import { startTestServer, type TestServer } from './support/server-app';

let s: TestServer;
let member: TestUser;
let worker: RunningWorker;
beforeAll(async () => {
  s = await startTestServer();
  member = await createTestUser(s.runtime, 'member');
  await defaultTwoTierPolicy(s.runtime.ctx, 60);
});
afterAll(async () => {
  await worker?.stop();
  await s.runtime.cleanup();
});

const generic = (alerts: JsonBody[]) => s.webhook('/api/v1/webhooks/generic', { alerts });
const alertsById = async (): Promise<Map<string, JsonBody>> => {
  const { alerts } = await s.get('/api/v1/alerts?limit=1000');
  return new Map(alerts.map((alert: JsonBody) => [alert.external_id, alert]));
};
const incidentList = async (): Promise<JsonBody[]> => (await s.get('/api/v1/incidents')).incidents;

describe('a maintenance window', () => {
  it('holds its alerts back while active, and pages for those still firing once it has ended', async () => {
    const now = Date.now();
    const res = await s.api('POST', '/api/v1/maintenance-windows', {
      token: member.token,
      body: {
        name: 'Checkout deploy',
        starts_at: new Date(now - 60_000).toISOString(),
        ends_at: new Date(now + 3600_000).toISOString(),
        match: { labels: { service: 'checkout' } },
      },
    });
    expect(res.status).toBe(201);
    expect((await bodyOf(res)).status).toBe('active');
    const tag = `${now}`;
    const held = await generic([
      {
        title: 'Checkout 5xx',
        severity: 'critical',
        external_id: `5xx-${tag}`,
        labels: { service: 'checkout' },
      },
      {
        title: 'Checkout slow',
        severity: 'warning',
        external_id: `slow-${tag}`,
        labels: { service: 'checkout' },
      },
    ]);
    expect(held.body).toMatchObject({ created: 2, suppressed: 2, incidents_created: 0 });
    const during = await alertsById();
    expect(during.get(`5xx-${tag}`)).toMatchObject({ suppressed_by: 'maintenance', incident_id: null });
    // Paged by nobody: no incident, nothing waiting to escalate.
    expect(await incidentList()).toEqual([]);
    const jobs = await s.runtime.sql`select job_name from outbox`;
    expect(jobs).toEqual([]);
    // The slow one recovers during the maintenance.
    const resolved = await generic([
      {
        title: 'Checkout slow',
        severity: 'warning',
        status: 'resolved',
        external_id: `slow-${tag}`,
        labels: { service: 'checkout' },
      },
    ]);
    expect(resolved.body).toMatchObject({ resolved: 1 });

    // The hour goes by: the window's end moves to now (the clock is the database's column, not a job).
    await s.runtime.sql`update maintenance_windows set ends_at = now()`;
    worker = await startWorker(s.runtime.ctx, {
      redis: s.runtime.redisConfig,
      ai: s.runtime.config.ai,
      intervalMs: 200,
    });
    await waitFor(async () => (await incidentList()).length > 0, { what: 'the release', timeoutMs: 15_000 });
    const [incident] = await incidentList();
    expect(incident).toMatchObject({ title: 'Checkout 5xx', source: 'alert' });
    await waitFor(async () => (await firedSteps(s.runtime.ctx, incident!.id)).length === 1, {
      what: 'the first page',
    });
    const after = await alertsById();
    expect(after.get(`5xx-${tag}`)).toMatchObject({ suppressed_by: null, incident_id: incident!.id });
    expect(after.get(`slow-${tag}`)).toMatchObject({
      status: 'resolved',
      suppressed_by: null,
      incident_id: null,
    });
    expect((await incidentList()).length).toBe(1);
    const window = (await s.get('/api/v1/maintenance-windows')).maintenance_windows[0];
    expect(window).toMatchObject({ name: 'Checkout deploy', status: 'ended' });
    expect(s.runtime.logs.lines).toContainEqual(
      expect.objectContaining({
        msg: 'maintenance window ended: alerts released',
        maintenance_window_id: window.id,
        incident_ids: [incident!.id],
        resolved_meanwhile: 1,
      }),
    );
  }, 30_000);
});
