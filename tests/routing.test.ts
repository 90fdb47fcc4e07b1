// Routing rules (docs/api.md#routing-rules): CRUD, and how alerts are routed by them.
import { createTestUser } from '@firebreak/runtime/testing';
import { bodyOf } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server-app';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.runtime.cleanup());

const rules = {
  create: async (body: unknown) => {
    const res = await s.api('POST', '/api/v1/routing-rules', { token: s.admin.token, body });
    return { status: res.status, body: await bodyOf(res) };
  },
  patch: (id: string, body: unknown) =>
    s.api('PATCH', `/api/v1/routing-rules/${id}`, { token: s.admin.token, body }),
  remove: (id: string) => s.api('DELETE', `/api/v1/routing-rules/${id}`, { token: s.admin.token }),
};
let n = 0;
const fire = async (alert: Record<string, unknown>) =>
  (
    await s.webhook('/api/v1/webhooks/generic', {
      alerts: [{ title: `alert ${++n}`, external_id: `r-${n}-${Date.now()}`, ...alert }],
    })
  ).body;

describe('routing rules API', () => {
  it('starts with the default rule and lists rules in evaluation order', async () => {
    const initial = (await s.get('/api/v1/routing-rules')).routing_rules;
    expect(initial).toHaveLength(1);
    expect(initial[0]).toMatchObject({
      priority: 1000,
      enabled: true,
      match_criteria: { severity: ['critical', 'warning'] },
      actions: { create_incident: true },
    });
    const a = (
      await rules.create({
        name: 'late',
        priority: 50,
        match_criteria: { labels: { x: '1' } },
        actions: { suppress: true },
      })
    ).body;
    const b = (
      await rules.create({
        name: 'early',
        priority: 5,
        match_criteria: { labels: { x: '2' } },
        actions: { suppress: true },
      })
    ).body;
    const c = (
      await rules.create({
        name: 'tie, younger',
        priority: 50,
        match_criteria: { labels: { x: '3' } },
        actions: { suppress: true },
      })
    ).body;
    const names = (await s.get('/api/v1/routing-rules')).routing_rules.map((r: { name: string }) => r.name);
    expect(names).toEqual(['early', 'late', 'tie, younger', initial[0].name]);
    for (const rule of [a, b, c]) expect((await rules.remove(rule.id)).status).toBe(204);
  });

  it('validates rules and names the problems', async () => {
    const { status, body } = await rules.create({
      name: '',
      priority: -1,
      match_criteria: { labels: { team: 5 }, colour: 'red' },
      actions: { suppress: true, create_incident: true, severity: 'sev1' },
    });
    expect(status).toBe(400);
    const paths = body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'name',
        'priority',
        'match_criteria.labels.team',
        'match_criteria',
        'actions.severity',
      ]),
    );
    const grouping = await rules.create({ name: 'g', priority: 1, actions: { group_by: ['team'] } });
    expect(grouping.body.error.details).toEqual([
      { path: 'actions.group_by', message: 'grouping needs create_incident: true' },
    ]);
  });

  it('reads, updates and deletes one rule; 404 for unknown ids', async () => {
    const rule = (
      await rules.create({
        name: 'temp',
        priority: 7,
        actions: { suppress: true },
        match_criteria: { source: 'nope' },
      })
    ).body;
    expect((await s.get(`/api/v1/routing-rules/${rule.id}`)).name).toBe('temp');
    const updated = await bodyOf(await rules.patch(rule.id, { enabled: false, priority: 8 }));
    expect(updated).toMatchObject({ enabled: false, priority: 8, name: 'temp' });
    expect((await rules.remove(rule.id)).status).toBe(204);
    expect((await rules.remove(rule.id)).status).toBe(404);
    expect((await rules.patch('00000000-0000-4000-8000-000000000000', { enabled: true })).status).toBe(404);
  });

  it('lets members and viewers read but only admins write', async () => {
    const member = await createTestUser(s.runtime, 'member');
    expect((await s.api('GET', '/api/v1/routing-rules', { token: member.token })).status).toBe(200);
    const write = await s.api('POST', '/api/v1/routing-rules', {
      token: member.token,
      body: { name: 'x', priority: 1, actions: { suppress: true } },
    });
    expect(write.status).toBe(403);
  });
});

describe('routing alerts', () => {
  it('takes the first matching enabled rule by priority: suppress beats the default rule', async () => {
    const quiet = (
      await rules.create({
        name: 'quiet staging',
        priority: 10,
        match_criteria: { labels: { env: 'staging' } },
        actions: { suppress: true },
      })
    ).body;
    const suppressed = await fire({ severity: 'critical', labels: { env: 'staging' } });
    expect(suppressed).toMatchObject({ suppressed: 1, incidents_created: 0 });
    expect(suppressed.alerts[0].incident_id).toBeNull();

    await rules.patch(quiet.id, { enabled: false });
    const routed = await fire({ severity: 'critical', labels: { env: 'staging' } });
    expect(routed).toMatchObject({ suppressed: 0, incidents_created: 1 });
    await rules.remove(quiet.id);
  });

  it('stores alerts no rule matches, without an incident', async () => {
    const body = await fire({ severity: 'info' });
    expect(body).toMatchObject({ created: 1, suppressed: 0, incidents_created: 0 });
    const alert = (await s.get('/api/v1/alerts?limit=1')).alerts[0];
    expect(alert).toMatchObject({ id: body.alerts[0].id, incident_id: null });
  });

  it('matches by source and overrides severity; the rule’s incident names its severity', async () => {
    const rule = (
      await rules.create({
        name: 'payments pages hard',
        priority: 1,
        match_criteria: { source: ['payments', 'billing'], severity: ['info'] },
        actions: { create_incident: true, severity: 'critical' },
      })
    ).body;
    const body = await fire({ severity: 'info', source: 'billing' });
    expect(body.incidents_created).toBe(1);
    const incident = await s.get(`/api/v1/incidents/${body.alerts[0].incident_id}`);
    expect(incident).toMatchObject({ severity: 'critical', source: 'alert' });
    expect((await fire({ severity: 'info', source: 'search' })).incidents_created).toBe(0);
    await rules.remove(rule.id);
  });

  it('groups alerts with equal group_by labels into one open incident within the window', async () => {
    const rule = (
      await rules.create({
        name: 'group db alerts',
        priority: 2,
        match_criteria: { labels: { team: 'db' } },
        actions: { create_incident: true, group_by: ['team', 'cluster'], group_window_seconds: 600 },
      })
    ).body;
    const first = await fire({ labels: { team: 'db', cluster: 'c1', host: 'a' } });
    const second = await fire({ labels: { team: 'db', cluster: 'c1', host: 'b' } });
    const otherCluster = await fire({ labels: { team: 'db', cluster: 'c2', host: 'c' } });
    expect(first.incidents_created).toBe(1);
    expect(second.incidents_created).toBe(0);
    expect(second.alerts[0].incident_id).toBe(first.alerts[0].incident_id);
    expect(otherCluster.incidents_created).toBe(1);
    const incident = await s.get(`/api/v1/incidents/${first.alerts[0].incident_id}`);
    expect(incident.alert_count).toBe(2);
    const linked = (await s.get(`/api/v1/incidents/${incident.id}/timeline`)).entries.filter(
      (e: { type: string }) => e.type === 'alert_linked',
    );
    expect(linked).toHaveLength(2);

    // Outside the window a new incident opens.
    await s.runtime
      .sql`update incidents set created_at = now() - interval '11 minutes' where id = ${incident.id}`;
    const late = await fire({ labels: { team: 'db', cluster: 'c1', host: 'd' } });
    expect(late.incidents_created).toBe(1);

    // A resolved incident takes no more alerts of its group.
    await s.api('PATCH', `/api/v1/incidents/${late.alerts[0].incident_id}`, {
      token: s.admin.token,
      body: { status: 'resolved' },
    });
    expect((await fire({ labels: { team: 'db', cluster: 'c1', host: 'e' } })).incidents_created).toBe(1);
    await rules.remove(rule.id);
  });

  it('opens one incident for a new group however many of its alerts arrive at once', async () => {
    const rule = (
      await rules.create({
        name: 'group storm',
        priority: 2,
        match_criteria: { labels: { team: 'storm' } },
        actions: { create_incident: true, group_by: ['team'] },
      })
    ).body;
    const results = await Promise.all(Array.from({ length: 10 }, () => fire({ labels: { team: 'storm' } })));
    expect(results.reduce((sum, r) => sum + r.incidents_created, 0)).toBe(1);
    const incidentIds = new Set(results.map((r) => r.alerts[0].incident_id));
    expect(incidentIds.size).toBe(1);

    // Resolving its alerts in separate, simultaneous requests still flags the incident.
    await Promise.all(
      results.map((r) =>
        s.webhook('/api/v1/webhooks/generic', {
          alerts: [{ title: 'x', external_id: r.alerts[0].external_id, status: 'resolved' }],
        }),
      ),
    );
    const [incidentId] = [...incidentIds];
    expect((await s.get(`/api/v1/incidents/${incidentId}`)).all_alerts_resolved).toBe(true);
    await rules.remove(rule.id);
  });

  it('clears the all-resolved flag when a new alert joins the group', async () => {
    const rule = (
      await rules.create({
        name: 'group web',
        priority: 3,
        match_criteria: { labels: { team: 'web' } },
        actions: { create_incident: true, group_by: ['team'] },
      })
    ).body;
    const first = await fire({ labels: { team: 'web' } });
    const incidentId = first.alerts[0].incident_id;
    await s.webhook('/api/v1/webhooks/generic', {
      alerts: [{ title: 'x', external_id: first.alerts[0].external_id, status: 'resolved' }],
    });
    expect((await s.get(`/api/v1/incidents/${incidentId}`)).all_alerts_resolved).toBe(true);
    const next = await fire({ labels: { team: 'web' } });
    expect(next.alerts[0].incident_id).toBe(incidentId);
    expect((await s.get(`/api/v1/incidents/${incidentId}`)).all_alerts_resolved).toBe(false);
    await rules.remove(rule.id);
  });

  it('previews which rule takes a sample alert, changing nothing', async () => {
    const rule = (
      await rules.create({
        name: 'db pages',
        priority: 4,
        match_criteria: { labels: { team: 'db' } },
        actions: { create_incident: true, severity: 'medium' },
      })
    ).body;
    const before = (await s.runtime.sql`select count(*)::int as n from alerts`)[0]!.n;
    const res = await s.api('POST', '/api/v1/routing-rules/preview', {
      token: s.admin.token,
      body: { labels: { team: 'db' }, severity: 'info' },
    });
    expect(await bodyOf(res)).toMatchObject({ rule: { id: rule.id }, outcome: 'incident (medium)' });
    const none = await s.api('POST', '/api/v1/routing-rules/preview', {
      token: s.admin.token,
      body: { severity: 'info' },
    });
    expect(await bodyOf(none)).toEqual({ rule: null, outcome: 'stored without incident (no rule matches)' });
    expect((await s.runtime.sql`select count(*)::int as n from alerts`)[0]!.n).toBe(before);
    await rules.remove(rule.id);
  });
});
