// Integrations as objects (docs/api.md#integrations): admins create, change, rotate and delete them and
// see their keys; members and viewers read them masked. Also the routing-rule check of integration ids,
// the fixed_webhooks_enabled setting with its open_intake view, and the start-up warning about open paths.
import { randomUUID } from 'node:crypto';
import { oneUserPerRole, startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import {
  fireDueHeartbeats,
  pingHeartbeat,
  recordAlerts,
  warnIfFixedIntakeOpen,
  writeIntegrationSecrets,
} from '@firebreak/services';
import { bodyOf, type JsonBody, type TestClient } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

const PUBLIC_URL = 'https://firebreak.example.com';
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
  } = await startTestApp(createApp, { env: { PUBLIC_URL: `${PUBLIC_URL}/` }, users: oneUserPerRole }));
});
afterAll(() => runtime.cleanup());

const create = (body: Record<string, unknown>, token = admin.token) =>
  api('POST', '/api/v1/integrations', { token, body: { name: `Integration ${randomUUID()}`, ...body } });
async function created(body: Record<string, unknown>): Promise<JsonBody> {
  const res = await create(body);
  const answer = await bodyOf(res);
  expect(res.status, JSON.stringify(answer)).toBe(201);
  return answer;
}
const get = async (path: string, token = admin.token) => bodyOf(await api('GET', path, { token }));
const patch = (id: string, body: unknown, token = admin.token) =>
  api('PATCH', `/api/v1/integrations/${id}`, { token, body });
async function problems(res: Response): Promise<Array<{ path: string; message: string }>> {
  const body = await bodyOf(res);
  expect(res.status, JSON.stringify(body)).toBe(400);
  expect(body.error.code).toBe('validation_failed');
  return body.error.details;
}
const paths = async (res: Response) => (await problems(res)).map((problem) => problem.path);

describe('integrations: CRUD and roles', () => {
  it('creates one with a random URL-safe key and its intake URL under PUBLIC_URL', async () => {
    const one = await created({ type: 'alertmanager', labels: { team: 'db' } });
    const other = await created({ type: 'alertmanager' });
    expect(one).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      type: 'alertmanager',
      enabled: true,
      key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      intake_url: `${PUBLIC_URL}/api/v1/intake/${one.key}`,
      escalation_policy_id: null,
      labels: { team: 'db' },
      created_at: expect.any(String),
      last_alert_at: null,
      interval_seconds: null,
      grace_seconds: null,
      severity: null,
      heartbeat: null,
    });
    expect(other.key).not.toBe(one.key);
    expect(await get(`/api/v1/integrations/${one.id}`)).toEqual(one);
  });

  it('members and viewers read, with the key and URL masked; only admins write', async () => {
    const one = await created({ type: 'generic' });
    for (const user of [member, viewer]) {
      const seen = await get(`/api/v1/integrations/${one.id}`, user.token);
      expect(seen).toEqual({
        ...one,
        key: `${one.key.slice(0, 4)}…`,
        intake_url: `${PUBLIC_URL}/api/v1/intake/${one.key.slice(0, 4)}…`,
      });
      const { integrations } = await get('/api/v1/integrations', user.token);
      expect(JSON.stringify(integrations)).not.toContain(one.key);
      expect((await create({ type: 'generic' }, user.token)).status).toBe(403);
      expect((await patch(one.id, { name: 'x' }, user.token)).status).toBe(403);
      expect(
        (await api('POST', `/api/v1/integrations/${one.id}/rotate-key`, { token: user.token })).status,
      ).toBe(403);
      expect((await api('DELETE', `/api/v1/integrations/${one.id}`, { token: user.token })).status).toBe(403);
    }
    expect((await api('GET', '/api/v1/integrations')).status).toBe(401);
  });

  it('lists oldest first, with the newest received_at of each one’s alerts', async () => {
    const quiet = await created({ type: 'generic' });
    const busy = await created({ type: 'generic' });
    const receivedAt = new Date('2026-11-21T10:15:00.000Z');
    const source = {
      scope: busy.id,
      integrationId: busy.id,
      type: 'generic',
      labels: {},
      escalationPolicyId: null,
    };
    const alert = (title: string) => ({
      source: null,
      externalId: randomUUID(),
      fingerprint: null,
      title,
      description: null,
      severity: 'info' as const,
      status: 'firing' as const,
      labels: {},
      annotations: {},
      startedAt: receivedAt,
      endedAt: null,
    });
    await recordAlerts(runtime.ctx, source, [alert('older')], new Date('2026-11-21T10:00:00.000Z'));
    await recordAlerts(runtime.ctx, source, [alert('newer')], receivedAt);
    const { integrations } = await get('/api/v1/integrations');
    const ids = integrations.map((integration: JsonBody) => integration.id);
    expect(ids.indexOf(quiet.id)).toBeLessThan(ids.indexOf(busy.id));
    expect(integrations.find((i: JsonBody) => i.id === busy.id).last_alert_at).toBe(receivedAt.toISOString());
    expect(integrations.find((i: JsonBody) => i.id === quiet.id).last_alert_at).toBeNull();

    // Deleted: 204, gone, and its alerts stay, no longer linked to it.
    expect((await api('DELETE', `/api/v1/integrations/${busy.id}`, { token: admin.token })).status).toBe(204);
    expect((await api('GET', `/api/v1/integrations/${busy.id}`, { token: admin.token })).status).toBe(404);
    expect((await api('DELETE', `/api/v1/integrations/${busy.id}`, { token: admin.token })).status).toBe(404);
    const { alerts } = await get('/api/v1/alerts?limit=1000');
    const kept = alerts.filter((a: JsonBody) => ['older', 'newer'].includes(a.title));
    expect(kept).toHaveLength(2);
    for (const a of kept) expect(a.integration_id).toBeNull();
  });

  it('changes name, enabled, labels and policy; rotating answers a new key', async () => {
    const one = await created({ type: 'grafana' });
    const policy = await bodyOf(
      await api('POST', '/api/v1/escalation-policies', {
        token: admin.token,
        body: { name: `P ${randomUUID()}` },
      }),
    );
    const changed = await bodyOf(
      await patch(one.id, {
        name: 'Grafana prod',
        enabled: false,
        labels: { env: 'prod' },
        escalation_policy_id: policy.id,
      }),
    );
    expect(changed).toMatchObject({
      name: 'Grafana prod',
      enabled: false,
      labels: { env: 'prod' },
      escalation_policy_id: policy.id,
      key: one.key,
    });
    const res = await api('POST', `/api/v1/integrations/${one.id}/rotate-key`, { token: admin.token });
    expect(res.status).toBe(200);
    const rotated = await bodyOf(res);
    expect(rotated).toMatchObject({ id: one.id, name: 'Grafana prod' });
    expect(rotated.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rotated.key).not.toBe(one.key);
    expect(rotated.intake_url).toBe(`${PUBLIC_URL}/api/v1/intake/${rotated.key}`);
    expect(
      (await api('POST', `/api/v1/integrations/${randomUUID()}/rotate-key`, { token: admin.token })).status,
    ).toBe(404);
  });
});

describe('integrations: validation', () => {
  it('refuses a bad body with every problem, and stores nothing', async () => {
    const before = (await get('/api/v1/integrations')).integrations.length;
    expect(await paths(await create({ type: 'nagios', name: '' }))).toEqual(
      expect.arrayContaining(['type', 'name']),
    );
    const labels = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`l${i}`, 'v']));
    expect(await paths(await create({ type: 'generic', labels }))).toEqual(['labels']);
    expect(await paths(await create({ type: 'generic', escalation_policy_id: randomUUID() }))).toEqual([
      'escalation_policy_id',
    ]);
    expect(
      await paths(
        await create({ type: 'generic', interval_seconds: 60, grace_seconds: 5, severity: 'info' }),
      ),
    ).toEqual(['interval_seconds', 'grace_seconds', 'severity']);
    expect(await paths(await create({ type: 'heartbeat' }))).toEqual(['interval_seconds']);
    expect(await paths(await create({ type: 'heartbeat', interval_seconds: 29, grace_seconds: -1 }))).toEqual(
      ['interval_seconds', 'grace_seconds'],
    );
    expect((await get('/api/v1/integrations')).integrations).toHaveLength(before);
  });

  it('PATCH: the type is fixed, heartbeat fields only for heartbeats, the policy must exist', async () => {
    const one = await created({ type: 'generic', name: 'Unchanged' });
    expect(await paths(await patch(one.id, { type: 'grafana' }))).toEqual(['type']);
    expect(await paths(await patch(one.id, { interval_seconds: 60 }))).toEqual(['interval_seconds']);
    expect(await paths(await patch(one.id, { escalation_policy_id: randomUUID() }))).toEqual([
      'escalation_policy_id',
    ]);
    expect(await paths(await patch(one.id, {}))).toEqual(['']);
    expect((await get(`/api/v1/integrations/${one.id}`)).name).toBe('Unchanged');
    expect((await patch(randomUUID(), { name: 'x' })).status).toBe(404);
    expect((await patch('not-a-uuid', { name: 'x' })).status).toBe(404);
  });
});

describe('heartbeat integrations', () => {
  it('defaults, state, and a new interval moves an armed deadline from the last ping', async () => {
    const beat = await created({ type: 'heartbeat', interval_seconds: 300 });
    expect(beat).toMatchObject({
      interval_seconds: 300,
      grace_seconds: 60,
      severity: 'critical',
      heartbeat: { status: 'waiting', last_ping_at: null, next_due_at: null },
    });
    const ping = await pingHeartbeat(runtime.ctx, beat.id);
    const armed = await get(`/api/v1/integrations/${beat.id}`);
    expect(armed.heartbeat).toEqual({
      status: 'up',
      last_ping_at: ping.last_ping_at,
      next_due_at: ping.next_due_at,
    });

    const changed = await bodyOf(
      await patch(beat.id, { interval_seconds: 600, grace_seconds: 30, severity: 'warning' }),
    );
    const due = new Date(Date.parse(ping.last_ping_at) + (600 + 30) * 1000).toISOString();
    expect(changed).toMatchObject({
      interval_seconds: 600,
      grace_seconds: 30,
      severity: 'warning',
      heartbeat: { status: 'up', last_ping_at: ping.last_ping_at, next_due_at: due },
    });
    // Only the grace: the interval stays, the deadline moves again.
    const graceOnly = await bodyOf(await patch(beat.id, { grace_seconds: 0 }));
    expect(graceOnly.heartbeat.next_due_at).toBe(
      new Date(Date.parse(ping.last_ping_at) + 600_000).toISOString(),
    );

    // Not yet pinged: nothing to move.
    const waiting = await created({
      type: 'heartbeat',
      interval_seconds: 60,
      grace_seconds: 0,
      severity: 'info',
    });
    expect((await bodyOf(await patch(waiting.id, { interval_seconds: 120 }))).heartbeat).toEqual({
      status: 'waiting',
      last_ping_at: null,
      next_due_at: null,
    });
  });
});

describe('turning a missed heartbeat off', () => {
  /** A heartbeat that was pinged, then went silent past its deadline: its missed alert fires. */
  async function missedHeartbeat(): Promise<string> {
    const beat = await created({ type: 'heartbeat', interval_seconds: 60, severity: 'info' });
    await pingHeartbeat(runtime.ctx, beat.id);
    await runtime.ctx.sql`
      update integrations set heartbeat_next_due_at = now() - interval '1 second' where id = ${beat.id}`;
    await fireDueHeartbeats(runtime.ctx);
    expect(await missedAlertStatus(beat.id)).toBe('firing');
    return beat.id;
  }
  const missedAlertStatus = async (id: string) => {
    const [row] = await runtime.ctx.sql<{ status: string }[]>`
      select status from alerts where external_id = ${`heartbeat:${id}`}`;
    return row?.status;
  };

  it('disabling it resolves its missed alert; deleting it does too', async () => {
    const disabled = await missedHeartbeat();
    expect((await patch(disabled, { enabled: false })).status).toBe(200);
    expect(await missedAlertStatus(disabled)).toBe('resolved');
    expect((await get(`/api/v1/integrations/${disabled}`)).heartbeat.status).toBe('waiting');

    const deleted = await missedHeartbeat();
    expect((await api('DELETE', `/api/v1/integrations/${deleted}`, { token: admin.token })).status).toBe(204);
    expect(await missedAlertStatus(deleted)).toBe('resolved');
  });
});

describe('routing rules name integrations that exist', () => {
  it('400 for an unknown integration_id, alone or in a list; an existing one is accepted', async () => {
    const one = await created({ type: 'generic' });
    const rule = (integration_id: unknown) => ({
      name: `By integration ${randomUUID()}`,
      priority: 10,
      match_criteria: { integration_id },
      actions: { suppress: true },
    });
    const post = (body: unknown) => api('POST', '/api/v1/routing-rules', { token: admin.token, body });
    expect(await problems(await post(rule(randomUUID())))).toEqual([
      { path: 'match_criteria.integration_id', message: 'no integration has this id' },
    ]);
    expect(await paths(await post(rule([one.id, randomUUID()])))).toEqual([
      'match_criteria.integration_id[1]',
    ]);
    const res = await post(rule([one.id]));
    expect(res.status).toBe(201);
    const { id } = await bodyOf(res);
    const update = await api('PATCH', `/api/v1/routing-rules/${id}`, {
      token: admin.token,
      body: { match_criteria: { integration_id: randomUUID() } },
    });
    expect(await paths(update)).toEqual(['match_criteria.integration_id']);
  });
});

describe('settings: fixed_webhooks_enabled and open_intake', () => {
  const allOpen = [
    { path: '/api/v1/webhooks/generic', settings_slug: 'generic-webhook' },
    { path: '/api/v1/webhooks/metrics-alertmanager', settings_slug: 'metrics-alertmanager' },
    { path: '/api/v1/webhooks/dashboard-alerting', settings_slug: 'dashboard-alerting' },
    { path: '/api/v1/webhooks/cloud-monitor', settings_slug: 'cloud-monitor' },
  ];
  const settings = (token = admin.token) => get('/api/v1/settings', token);
  const setFixed = (value: unknown, token = admin.token) =>
    api('PATCH', '/api/v1/settings', { token, body: { fixed_webhooks_enabled: value } });

  it('on by default, every unsecured fixed path listed; a secret closes its path; false closes all', async () => {
    expect(await settings(viewer.token)).toMatchObject({
      fixed_webhooks_enabled: true,
      open_intake: allOpen,
    });
    await writeIntegrationSecrets(runtime.ctx, { genericSigningSecret: 'a-secret-of-sixteen+' });
    try {
      expect((await settings()).open_intake).toEqual(allOpen.slice(1));
    } finally {
      await writeIntegrationSecrets(runtime.ctx, { genericSigningSecret: null });
    }

    expect((await setFixed(false, member.token)).status).toBe(403);
    expect(await paths(await setFixed('no'))).toEqual(['fixed_webhooks_enabled']);
    expect(await paths(await api('PATCH', '/api/v1/settings', { token: admin.token, body: {} }))).toEqual([
      '',
    ]);
    const off = await setFixed(false);
    expect(off.status).toBe(200);
    expect(await bodyOf(off)).toMatchObject({ fixed_webhooks_enabled: false, open_intake: [] });
    expect(await settings(viewer.token)).toMatchObject({ fixed_webhooks_enabled: false, open_intake: [] });
    // The default policy is its own field: changing one leaves the other.
    const policy = await bodyOf(
      await api('POST', '/api/v1/escalation-policies', {
        token: admin.token,
        body: { name: `D ${randomUUID()}` },
      }),
    );
    const both = await bodyOf(
      await api('PATCH', '/api/v1/settings', {
        token: admin.token,
        body: { default_escalation_policy_id: policy.id },
      }),
    );
    expect(both).toMatchObject({ fixed_webhooks_enabled: false, default_escalation_policy_id: policy.id });
    expect(await bodyOf(await setFixed(true))).toMatchObject({
      fixed_webhooks_enabled: true,
      open_intake: allOpen,
      default_escalation_policy_id: policy.id,
    });
  });

  it('warns once per process at start-up while a fixed path is open, naming the paths and the way out', async () => {
    const process = { ...runtime.ctx }; // a context of its own: what a fresh process starts with
    const warnings = () =>
      runtime.logs.lines.filter(
        (line) => line.level === 'warn' && String(line.msg).startsWith('open intake'),
      );
    const before = warnings().length;
    expect(await warnIfFixedIntakeOpen(process)).toEqual(allOpen.map((entry) => entry.path));
    expect(await warnIfFixedIntakeOpen(process)).toEqual([]);
    const lines = warnings().slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.open_intake).toEqual(allOpen.map((entry) => entry.path));
    expect(lines[0]!.msg).toContain('/api/v1/webhooks/generic');
    expect(lines[0]!.msg).toContain('Settings → Integrations');
    expect(lines[0]!.msg).toContain('fixed_webhooks_enabled');

    // Closed: a process started now says nothing.
    expect((await setFixed(false)).status).toBe(200);
    try {
      expect(await warnIfFixedIntakeOpen({ ...runtime.ctx })).toEqual([]);
      expect(warnings().slice(before)).toHaveLength(1);
    } finally {
      await setFixed(true);
    }
  });
});
