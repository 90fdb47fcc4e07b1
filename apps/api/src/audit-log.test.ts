// The audit log (docs/api.md#audit-log): every change to configuration records one row, in the same
// transaction, naming the actor, the request and the entity before and after, with secrets redacted.
import { oneUserPerRole, startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import { type ChangeOrigin, createRoutingRule, createUser } from '@firebreak/services';
import {
  bodyOf,
  type FakeOnCallApi,
  type JsonBody,
  oncallFixturesDir,
  startFakeOnCallApi,
  type TestClient,
} from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

let runtime: TestRuntime;
let api: TestClient;
let admin: TestUser;
let member: TestUser;
let viewer: TestUser;
let oncall: FakeOnCallApi;
const ONCALL_TOKEN = 'oncall-audit-token';

beforeAll(async () => {
  ({
    runtime,
    api,
    users: { admin, member, viewer },
  } = await startTestApp(createApp, { users: oneUserPerRole }));
  oncall = await startFakeOnCallApi({ fixturesDir: oncallFixturesDir, token: ONCALL_TOKEN });
});
afterAll(async () => {
  await oncall?.close();
  await runtime?.cleanup();
});

let requests = 0;
/** A call with its own request id, so each test can find the rows its request wrote. */
async function call(method: string, path: string, body?: unknown, token = admin.token) {
  const requestId = `audit-test-${++requests}`;
  const res = await api(method, path, { token, body, headers: { 'x-request-id': requestId } });
  const answer = res.status === 204 ? null : await bodyOf(res);
  return { status: res.status, body: answer as JsonBody, requestId };
}

async function ok(method: string, path: string, body?: unknown, token = admin.token) {
  const res = await call(method, path, body, token);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res;
}

async function auditLog(query: string, token = admin.token) {
  const res = await api('GET', `/api/v1/audit-log${query}`, { token });
  return { status: res.status, body: await bodyOf(res) };
}

/** The rows of one entity, oldest first (the API answers newest first). */
async function rowsOf(entityId: string): Promise<JsonBody[]> {
  const { status, body } = await auditLog(`?entity_id=${entityId}&limit=1000`);
  expect(status).toBe(200);
  return [...body.entries].reverse();
}

const byAdmin = () => ({ type: 'user', id: admin.id, name: 'Ada Admin' });

describe('the audit log records each change', () => {
  it('users: create, update (password redacted), delete — with actor and request id', async () => {
    const created = await ok('POST', '/api/v1/users', {
      email: 'audited@example.test',
      name: 'Audited',
      role: 'viewer',
      password: 'a-password-of-some-length',
    });
    const id = created.body.id;
    const updated = await ok('PATCH', `/api/v1/users/${id}`, {
      role: 'member',
      password: 'another-password-1',
    });
    const deleted = await ok('DELETE', `/api/v1/users/${id}`);
    const rows = await rowsOf(id);
    expect(rows.map((r) => [r.entity_type, r.action, r.request_id])).toEqual([
      ['user', 'create', created.requestId],
      ['user', 'update', updated.requestId],
      ['user', 'delete', deleted.requestId],
    ]);
    for (const row of rows) expect(row.actor).toEqual(byAdmin());
    expect(rows[0]!.before).toBeNull();
    expect(rows[0]!.after).toMatchObject({ id, name: 'Audited', role: 'viewer' });
    expect(rows[1]!.before).toMatchObject({ role: 'viewer' });
    expect(rows[1]!.after).toMatchObject({ role: 'member', password: '[redacted]' });
    expect(rows[2]!.before).toMatchObject({ id, role: 'member' });
    expect(rows[2]!.after).toBeNull();
    const text = JSON.stringify(rows);
    expect(text).not.toContain('another-password-1');
    expect(text).not.toContain('$argon2');
  });

  it('API keys: create and revoke; a change made with a key names the key, not its creator', async () => {
    const key = await ok('POST', '/api/v1/api-keys', { name: 'Deploy bot', role: 'admin' });
    const rule = await ok(
      'POST',
      '/api/v1/routing-rules',
      { name: 'Made by a key', priority: 5, match_criteria: {}, actions: { suppress: true } },
      key.body.token,
    );
    const [ruleRow] = await rowsOf(rule.body.id);
    expect(ruleRow!.actor).toEqual({ type: 'api_key', id: key.body.id, name: 'Deploy bot' });
    expect(ruleRow!.request_id).toBe(rule.requestId);

    await ok('DELETE', `/api/v1/api-keys/${key.body.id}`);
    const rows = await rowsOf(key.body.id);
    expect(rows.map((r) => r.action)).toEqual(['create', 'revoke']);
    expect(rows[0]!.after).toMatchObject({ id: key.body.id, name: 'Deploy bot', role: 'admin' });
    expect(rows[1]!.after.revoked_at).toEqual(expect.any(String));
    expect(JSON.stringify(rows)).not.toContain(key.body.token);
  });

  it('routing rules, escalation policies and schedules: create, update, delete', async () => {
    const schedule = await ok('POST', '/api/v1/schedules', { name: 'Audited rota' });
    await ok('PATCH', `/api/v1/schedules/${schedule.body.id}`, { name: 'Audited rota 2' });
    const policy = await ok('POST', '/api/v1/escalation-policies', {
      name: 'Audited policy',
      tiers: [{ target_type: 'schedule', schedule_id: schedule.body.id }],
    });
    await ok('PATCH', `/api/v1/escalation-policies/${policy.body.id}`, { description: 'changed' });
    const rule = await ok('POST', '/api/v1/routing-rules', {
      name: 'Audited rule',
      priority: 7,
      match_criteria: { severity: ['critical'] },
      actions: { create_incident: true },
    });
    await ok('PATCH', `/api/v1/routing-rules/${rule.body.id}`, { priority: 8 });
    await ok('DELETE', `/api/v1/routing-rules/${rule.body.id}`);
    await ok('DELETE', `/api/v1/escalation-policies/${policy.body.id}`);
    await ok('DELETE', `/api/v1/schedules/${schedule.body.id}`);

    const ruleRows = await rowsOf(rule.body.id);
    expect(ruleRows.map((r) => [r.entity_type, r.action])).toEqual([
      ['routing_rule', 'create'],
      ['routing_rule', 'update'],
      ['routing_rule', 'delete'],
    ]);
    expect(ruleRows[1]!.before).toMatchObject({ priority: 7 });
    expect(ruleRows[1]!.after).toMatchObject({ priority: 8 });
    expect(ruleRows[2]).toMatchObject({ before: { priority: 8 }, after: null });

    const policyRows = await rowsOf(policy.body.id);
    expect(policyRows.map((r) => [r.entity_type, r.action])).toEqual([
      ['escalation_policy', 'create'],
      ['escalation_policy', 'update'],
      ['escalation_policy', 'delete'],
    ]);
    expect(policyRows[1]!.before.description).not.toBe('changed');
    expect(policyRows[1]!.after).toMatchObject({
      description: 'changed',
      tiers: [{ target_type: 'schedule' }],
    });

    const scheduleRows = await rowsOf(schedule.body.id);
    expect(scheduleRows.map((r) => [r.entity_type, r.action])).toEqual([
      ['schedule', 'create'],
      ['schedule', 'update'],
      ['schedule', 'delete'],
    ]);
    expect(scheduleRows[1]).toMatchObject({
      before: { name: 'Audited rota' },
      after: { name: 'Audited rota 2' },
    });
    for (const row of [...ruleRows, ...policyRows, ...scheduleRows]) expect(row.actor).toEqual(byAdmin());
  });

  it('integrations: create, update, rotate, delete — the key is redacted, never stored in the log', async () => {
    const created = await ok('POST', '/api/v1/integrations', { name: 'Audited intake', type: 'generic' });
    const firstKey = created.body.key;
    await ok('PATCH', `/api/v1/integrations/${created.body.id}`, { name: 'Audited intake 2' });
    const rotated = await ok('POST', `/api/v1/integrations/${created.body.id}/rotate-key`);
    await ok('DELETE', `/api/v1/integrations/${created.body.id}`);
    const rows = await rowsOf(created.body.id);
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'rotate', 'delete']);
    for (const row of rows) expect(row.actor).toEqual(byAdmin());
    expect(rows[0]!.after).toMatchObject({ name: 'Audited intake', type: 'generic', key: '[redacted]' });
    expect(rows[1]).toMatchObject({
      before: { name: 'Audited intake' },
      after: { name: 'Audited intake 2' },
    });
    expect(rows[2]).toMatchObject({ before: { key: '[redacted]' }, after: { key: '[redacted]' } });
    const text = JSON.stringify(rows);
    expect(text).not.toContain(firstKey);
    expect(text).not.toContain(rotated.body.key);
  });

  it('settings: general and integration secrets, the secret redacted', async () => {
    const secret = 'generic-signing-secret-for-audit';
    const put = await ok('PUT', '/api/v1/settings/integrations/generic-webhook', { signing_secret: secret });
    await ok('PUT', '/api/v1/settings/integrations/generic-webhook', { signing_secret: null });
    const patch = await ok('PATCH', '/api/v1/settings', { fixed_webhooks_enabled: false });
    await ok('PATCH', '/api/v1/settings', { fixed_webhooks_enabled: true });

    const integrations = await rowsOf('integrations');
    const key = 'integrations.generic_webhook.signing_secret';
    expect(integrations.at(-2)).toMatchObject({
      entity_type: 'settings',
      action: 'update',
      request_id: put.requestId,
      before: { [key]: null },
      after: { [key]: '[redacted]' },
    });
    expect(integrations.at(-1)).toMatchObject({ before: { [key]: '[redacted]' }, after: { [key]: null } });
    expect(JSON.stringify(integrations)).not.toContain(secret);

    const general = await rowsOf('general');
    expect(general.at(-2)).toMatchObject({
      request_id: patch.requestId,
      actor: byAdmin(),
      after: { fixed_webhooks_enabled: false },
    });
    expect(general.at(-1)).toMatchObject({
      before: { fixed_webhooks_enabled: false },
      after: { fixed_webhooks_enabled: true },
    });
  });

  it('maintenance windows (a member may make them) and outgoing webhooks, the webhook secret redacted', async () => {
    const at = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString();
    const window = await ok(
      'POST',
      '/api/v1/maintenance-windows',
      { name: 'Audited window', starts_at: at(2), ends_at: at(3) },
      member.token,
    );
    await ok('DELETE', `/api/v1/maintenance-windows/${window.body.id}`, undefined, member.token);
    const windowRows = await rowsOf(window.body.id);
    expect(windowRows.map((r) => r.action)).toEqual(['create', 'delete']);
    expect(windowRows[0]!.actor).toEqual({ type: 'user', id: member.id, name: 'Mia Member' });
    expect(windowRows[0]!.after).toMatchObject({ name: 'Audited window', status: 'scheduled' });

    const secret = 'webhook-secret-for-the-audit';
    const hook = await ok('POST', '/api/v1/outgoing-webhooks', {
      name: 'Audited hook',
      url: 'https://status.example/hooks/audit',
      events: ['incident.created'],
      secret,
    });
    await ok('PATCH', `/api/v1/outgoing-webhooks/${hook.body.id}`, { enabled: false });
    await ok('DELETE', `/api/v1/outgoing-webhooks/${hook.body.id}`);
    const hookRows = await rowsOf(hook.body.id);
    expect(hookRows.map((r) => r.action)).toEqual(['create', 'update', 'delete']);
    expect(hookRows[0]!.after).toMatchObject({
      name: 'Audited hook',
      secret: '[redacted]',
      has_secret: true,
    });
    expect(hookRows[1]).toMatchObject({ before: { enabled: true }, after: { enabled: false } });
    expect(JSON.stringify(hookRows)).not.toContain(secret);
  });

  it('imports: one row for a real import (setup tokens redacted), none for a dry run', async () => {
    const body = { url: oncall.url, api_token: ONCALL_TOKEN };
    await ok('POST', '/api/v1/imports/oncall', { ...body, dry_run: true });
    expect(await rowsOf('oncall')).toEqual([]);
    const imported = await ok('POST', '/api/v1/imports/oncall', body);
    const rows = await rowsOf('oncall');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      entity_type: 'import',
      action: 'import',
      actor: byAdmin(),
      request_id: imported.requestId,
      before: null,
      after: { source: 'oncall', dry_run: false, summary: imported.body.summary },
    });
    expect(imported.body.setup_tokens.length).toBeGreaterThan(0);
    expect(rows[0]!.after.setup_tokens).toBe('[redacted]');
    for (const grant of imported.body.setup_tokens) expect(JSON.stringify(rows)).not.toContain(grant.token);
  });

  it('a refused change records nothing: the row shares the change’s transaction', async () => {
    const schedule = await ok('POST', '/api/v1/schedules', { name: 'Paged rota' });
    await ok('POST', '/api/v1/escalation-policies', {
      name: 'Pages the rota',
      tiers: [{ target_type: 'schedule', schedule_id: schedule.body.id }],
    });
    const refused = await call('DELETE', `/api/v1/schedules/${schedule.body.id}`);
    expect(refused.status).toBe(409);
    expect((await rowsOf(schedule.body.id)).map((r) => r.action)).toEqual(['create']);
  });
});

describe('the change and its audit row commit together', () => {
  // An actor the table's check refuses makes the audit insert fail: the change must fail with it.
  const unrecordable = { actor: { type: 'nobody', name: 'x' }, requestId: null } as unknown as ChangeOrigin;

  it('a change whose audit row cannot be written is not made', async () => {
    const rule = { name: 'Never audited', priority: 3, enabled: true, match_criteria: {}, actions: {} };
    await expect(createRoutingRule(runtime.ctx, rule, unrecordable)).rejects.toThrow();
    const email = 'never-audited@example.test';
    await expect(
      createUser(runtime.ctx, { email, name: 'Never audited', role: 'viewer' }, unrecordable),
    ).rejects.toThrow();
    const [found] = await runtime.sql<{ rules: number; users: number }[]>`
      select (select count(*)::int from routing_rules where name = 'Never audited') as rules,
             (select count(*)::int from users where email = ${email}) as users`;
    expect(found).toEqual({ rules: 0, users: 0 });
  });
});

describe('the audit log table', () => {
  it('refuses update, delete and truncate, whoever asks', async () => {
    await ok('POST', '/api/v1/routing-rules', {
      name: 'Immutable',
      priority: 9,
      match_criteria: {},
      actions: { create_incident: true },
    });
    const [counted] = await runtime.sql<{ count: number }[]>`select count(*)::int as count from audit_log`;
    const count = counted!.count;
    expect(count).toBeGreaterThan(0);
    await expect(runtime.sql`update audit_log set action = 'forged'`).rejects.toThrow(/append-only/);
    await expect(runtime.sql`delete from audit_log`).rejects.toThrow(/append-only/);
    await expect(runtime.sql`truncate audit_log`).rejects.toThrow(/append-only/);
    const [after] = await runtime.sql<{ count: number }[]>`select count(*)::int as count from audit_log`;
    expect(after!.count).toBe(count);
  });
});

describe('GET /api/v1/audit-log', () => {
  it('is for admins only', async () => {
    expect((await auditLog('', member.token)).status).toBe(403);
    expect((await auditLog('', viewer.token)).status).toBe(403);
    expect((await api('GET', '/api/v1/audit-log')).status).toBe(401);
    expect((await auditLog('')).status).toBe(200);
  });

  it('filters by entity, entity id, actor and time, newest first', async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    const a = await ok('POST', '/api/v1/schedules', { name: 'Filter A' });
    const b = await ok('POST', '/api/v1/schedules', { name: 'Filter B' }, admin.token);
    const bySchedule = (await auditLog(`?entity=schedule&from=${encodeURIComponent(before)}`)).body;
    const ids = bySchedule.entries.map((e: JsonBody) => e.entity_id);
    expect(ids.indexOf(b.body.id)).toBeLessThan(ids.indexOf(a.body.id));
    expect(ids.indexOf(a.body.id)).toBeGreaterThanOrEqual(0);
    expect(bySchedule.entries.every((e: JsonBody) => e.entity_type === 'schedule')).toBe(true);

    const one = (await auditLog(`?entity=schedule&entity_id=${a.body.id}`)).body.entries;
    expect(one).toHaveLength(1);

    expect((await auditLog(`?actor=${member.id}&entity=routing_rule`)).body.entries).toEqual([]);
    const mine = (await auditLog(`?actor=${admin.id}&entity=schedule`)).body.entries;
    expect(mine.map((e: JsonBody) => e.entity_id)).toContain(a.body.id);

    const future = new Date(Date.now() + 3600_000).toISOString();
    expect((await auditLog(`?from=${encodeURIComponent(future)}`)).body.entries).toEqual([]);
    const old = (await auditLog(`?to=${encodeURIComponent(before)}&entity=schedule`)).body.entries;
    expect(old.map((e: JsonBody) => e.entity_id)).not.toContain(a.body.id);
  });

  it('pages with a cursor until next_cursor is null', async () => {
    const everything = (await auditLog('?limit=1000')).body.entries.map((e: JsonBody) => e.id);
    expect(everything.length).toBeGreaterThan(5);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = (await auditLog(query)).body;
      expect(page.entries.length).toBeLessThanOrEqual(2);
      paged.push(...page.entries.map((e: JsonBody) => e.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(paged).toEqual(everything);
  });

  it('answers 400 validation_failed for bad filters', async () => {
    for (const query of [
      '?cursor=nonsense',
      '?actor=someone',
      '?entity=incident',
      '?from=yesterday',
      '?limit=0',
    ]) {
      const { status, body } = await auditLog(query);
      expect(status, query).toBe(400);
      expect(body.error.code).toBe('validation_failed');
    }
  });
});
