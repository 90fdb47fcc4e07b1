// The Opsgenie import (docs/import-opsgenie.md), end to end: the fixture account of
// packages/testing/fixtures/opsgenie, served by the fake Opsgenie API two items a page, imported through
// POST /api/v1/imports/opsgenie into a database that already holds what preexisting.json names; dry run,
// real run, second run, refused keys and bad input.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createApp } from '@firebreak/api';
import { escalationPolicies, schedules, users } from '@firebreak/db';
import {
  createTestRuntime,
  createTestUser,
  type TestRuntime,
  type TestUser,
} from '@firebreak/runtime/testing';
import type { ImportResult } from '@firebreak/schema';
import {
  bodyOf,
  type FakeOpsgenieApi,
  opsgenieFixturesDir,
  startFakeOpsgenieApi,
  type TestClient,
  testClient,
} from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const KEY = 'northwind-config-key';
const preexisting = JSON.parse(readFileSync(resolve(opsgenieFixturesDir, 'preexisting.json'), 'utf8'));
let runtime: TestRuntime;
let api: TestClient;
let opsgenie: FakeOpsgenieApi;
let admin: TestUser;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(createApp({ ctx: runtime.ctx, ready: runtime.ready, config: runtime.config }));
  opsgenie = await startFakeOpsgenieApi({ fixturesDir: opsgenieFixturesDir, apiKey: KEY, maxPageSize: 2 });
  admin = await createTestUser(runtime, 'admin', 'Ada Admin');
  const at = new Date();
  for (const email of preexisting.user_emails) {
    await users.insertUser(runtime.sql, { email, name: 'Dana (already here)', role: 'member' });
  }
  for (const name of preexisting.schedule_names) {
    await schedules.insertSchedule(runtime.sql, { name, timezone: 'UTC', at });
  }
  for (const name of preexisting.policy_names) {
    await escalationPolicies.insertPolicy(runtime.sql, {
      name,
      description: '',
      enabled: true,
      repeat: 0,
      at,
    });
  }
  for (const key of preexisting.integration_keys) {
    await runtime.sql`insert into integrations (name, type, key) values ('Already here', 'generic', ${key})`;
  }
});
afterAll(async () => {
  await opsgenie?.close();
  await runtime?.cleanup();
});

const importOpsgenie = (body: Record<string, unknown>, token = admin.token) =>
  api('POST', '/api/v1/imports/opsgenie', { token, body: { url: opsgenie.url, api_key: KEY, ...body } });

type Counts = Record<
  'users' | 'schedules' | 'layers' | 'policies' | 'tiers' | 'integrations' | 'setup_tokens',
  number
>;

async function counts(): Promise<Counts> {
  const [row] = await runtime.sql<Counts[]>`
    select (select count(*)::int from users) as users, (select count(*)::int from schedules) as schedules,
           (select count(*)::int from schedule_layers) as layers,
           (select count(*)::int from escalation_policies) as policies,
           (select count(*)::int from escalation_tiers) as tiers,
           (select count(*)::int from integrations) as integrations,
           (select count(*)::int from setup_tokens) as setup_tokens`;
  return row!;
}

const summary = {
  users: { created: 5, skipped: 1 },
  schedules: { created: 2, skipped: 1 },
  escalation_policies: { created: 2, skipped: 1 },
  integrations: { created: 2, skipped: 1 },
};
const messages = (answer: ImportResult, name: string) =>
  answer.warnings.filter((w) => w.name === name).map((w) => w.message);

let dryRun: ImportResult;

describe('dry run', () => {
  it('answers the whole plan and writes nothing', async () => {
    const before = await counts();
    const res = await importOpsgenie({ dry_run: true });
    expect(res.status).toBe(200);
    dryRun = await bodyOf(res);
    expect(dryRun.dry_run).toBe(true);
    expect(dryRun.summary).toEqual(summary);
    expect(dryRun.users.every((u) => u.id === null)).toBe(true);
    expect(dryRun.integrations.every((i) => i.integration_id === null)).toBe(true);
    expect(dryRun.setup_tokens.every((t) => t.token === null)).toBe(true);
    expect(await counts()).toEqual(before);
  });

  it('reads every list page by page with the GenieKey, rotations expanded, keys from the details', () => {
    for (const resource of ['users', 'teams', 'schedules', 'escalations', 'integrations'] as const) {
      const requests = opsgenie.requestsTo(resource);
      expect(requests.every((r) => r.authorization === `GenieKey ${KEY}`)).toBe(true);
    }
    expect(opsgenie.requestsTo('users').map((r) => r.query.offset)).toEqual(['0', '2', '4']);
    expect(opsgenie.requestsTo('schedules').every((r) => r.query.expand === 'rotation')).toBe(true);
    expect(
      opsgenie.requests.some((r) => r.path === '/v2/integrations/1e7e0001-intg-4d4d-9e9e-checkoutapi1'),
    ).toBe(true);
    expect(opsgenie.requests.some((r) => r.path.startsWith('/v2/integrations/1e7e0004'))).toBe(false);
  });
});

describe('the import', () => {
  let answer: ImportResult;
  let before: Counts;

  it('creates users, schedules, policies and keyed integrations; the answer equals the dry run’s but for ids', async () => {
    before = await counts();
    const res = await importOpsgenie({ dry_run: false });
    expect(res.status).toBe(200);
    answer = await bodyOf(res);
    expect(answer.summary).toEqual(summary);
    expect(answer.warnings).toEqual(dryRun.warnings);
    expect(answer.conflicts).toEqual(dryRun.conflicts);
    const after = await counts();
    expect(after.users - before.users).toBe(5);
    expect(after.schedules - before.schedules).toBe(2);
    expect(after.policies - before.policies).toBe(2);
    expect(after.integrations - before.integrations).toBe(2);
    expect(answer.setup_tokens.every((t) => t.token?.startsWith('fbp_'))).toBe(true);
  });

  it('maps roles: Owner and Admin admin, User member, Stakeholder viewer, a custom role viewer with a warning', () => {
    expect(answer.users.map((u) => [u.email, u.name, u.role])).toEqual([
      ['alice@northwind.dev', 'Alice Moreau', 'admin'],
      ['bruno.silva@northwind.dev', 'Bruno Silva', 'admin'],
      ['chen@northwind.dev', 'Chen Wei', 'member'],
      ['eli@northwind.dev', 'Eli Novak', 'viewer'],
      ['farah@northwind.dev', 'farah@northwind.dev', 'viewer'],
    ]);
    expect(answer.conflicts).toContainEqual(
      expect.objectContaining({ kind: 'user', email: 'dana@northwind.dev' }),
    );
    expect(messages(answer, 'farah@northwind.dev')[0]).toContain('custom role "Responder"');
  });

  it('rotations become layers, the first listed on top; ended ones, restrictions, teams and overrides warned', async () => {
    const primary = answer.schedules.find((s) => s.name === 'Platform Primary')!;
    expect(primary.timezone).toBe('Europe/Paris');
    expect(primary.layers.map((l) => [l.name, l.order_index, l.shift_duration_seconds])).toEqual([
      ['Weekly primary', 1, 604_800],
      ['Business hours backup', 0, 86_400],
    ]);
    expect(primary.layers[0]!.participants.map((p) => [p.name, p.user_id !== null])).toEqual([
      ['Alice Moreau', true],
      ['Bruno Silva', true],
      ['gone@northwind.dev', false],
    ]);
    expect(primary.layers[1]!.participants.map((p) => p.name)).toEqual([
      'Chen Wei',
      'team Payments',
      'nobody',
    ]);
    const notes = messages(answer, 'Platform Primary');
    for (const text of [
      "rotation 'Old rotation': ended",
      'participant gone@northwind.dev is not an imported user',
      'weekday-and-time-of-day restriction dropped',
      'team Payments takes a turn',
      'a turn of nobody',
      "override 'alice-covers-bruno'",
    ]) {
      expect(
        notes.some((m) => m.includes(text)),
        text,
      ).toBe(true);
    }
    const [stored] =
      await runtime.sql`select count(*)::int as n from schedule_layers where schedule_id = ${primary.id}`;
    expect(stored!.n).toBe(2);
    const hours = answer.schedules.find((s) => s.name === 'Payments Hours')!;
    expect(hours.layers[0]).toMatchObject({ shift_duration_seconds: 43_200, rotation_type: 'daily' });
  });

  it('rules counted from creation become per-tier waits; repeat kept; team members stand in for a team', () => {
    const platform = answer.escalation_policies.find((p) => p.name === 'Platform Escalation')!;
    expect(platform.description).toBe('Imported from Opsgenie; team Platform');
    expect(platform.repeat).toBe(2);
    expect(
      platform.tiers.map((t) => [t.target_type, t.schedule_name ?? t.user_names, t.timeout_seconds]),
    ).toEqual([
      ['schedule', 'Platform Primary', 300],
      ['users', ['Bruno Silva', 'gone@northwind.dev'], 600],
      ['users', ['Alice Moreau'], 60],
      ['schedule', 'Platform Primary', 600],
    ]);
    const payments = answer.escalation_policies.find((p) => p.name === 'Payments Escalation')!;
    expect(payments.repeat).toBe(10);
    expect(payments.tiers.map((t) => [t.schedule_name ?? t.user_names, t.timeout_seconds])).toEqual([
      [['Chen Wei'], 1680],
      [['Chen Wei', 'Eli Novak'], 600],
      ['Payments Hours', 300],
    ]);
    const notes = messages(answer, 'Payments Escalation');
    for (const text of [
      'if-not-closed',
      'first rule waits 2 min',
      'was not imported; rule skipped',
      'lowered to 10',
      'closeAlertAfterAll',
    ]) {
      expect(
        notes.some((m) => m.includes(text)),
        text,
      ).toBe(true);
    }
  });

  it('API and Prometheus integrations keep their Opsgenie key; the taken key is a conflict; others get a note', async () => {
    const checkout = answer.integrations.find((i) => i.name === 'Checkout API')!;
    expect(checkout).toMatchObject({ type: 'API', webhook_path: '/v2/alerts' });
    expect(checkout.note).toContain('GenieKey');
    const [row] = await runtime.sql`
      select i.type, i.key, i.enabled, p.name as policy from integrations i
      left join escalation_policies p on p.id = i.escalation_policy_id where i.id = ${checkout.integration_id}`;
    expect(row).toEqual({
      type: 'opsgenie',
      key: '3f8a2c10-7d4b-4e61-9a35-checkout0001',
      enabled: true,
      policy: 'Payments Escalation',
    });
    expect(answer.integrations.find((i) => i.name === 'Alertmanager')!.integration_id).not.toBeNull();
    expect(answer.integrations.find((i) => i.name === 'Legacy API')!.integration_id).toBeNull();
    expect(answer.conflicts).toContainEqual({
      kind: 'integration',
      name: 'Legacy API',
      reason: 'an integration with this key already exists',
    });
    const email = answer.integrations.find((i) => i.name === 'Support inbox')!;
    expect(email).toMatchObject({ webhook_path: null, integration_id: null });
    expect(answer.integrations.find((i) => i.name === 'Datadog')).toMatchObject({
      webhook_path: '/api/v1/webhooks/generic',
      integration_id: null,
    });
  });

  it('a second run finds everything present: conflicts, never duplicates', async () => {
    const middle = await counts();
    const res = await importOpsgenie({ dry_run: false });
    expect(res.status).toBe(200);
    const again: ImportResult = await bodyOf(res);
    expect(again.summary).toEqual({
      users: { created: 0, skipped: 6 },
      schedules: { created: 0, skipped: 3 },
      escalation_policies: { created: 0, skipped: 3 },
      integrations: { created: 0, skipped: 3 },
    });
    expect(await counts()).toEqual(middle);
  });
});

describe('refusals', () => {
  it('a wrong key: 400 at api_key, nothing written, the key not echoed', async () => {
    const before = await counts();
    const res = await importOpsgenie({ api_key: 'not-the-key', dry_run: false });
    expect(res.status).toBe(400);
    const body = await bodyOf(res);
    expect(body.error).toMatchObject({
      code: 'validation_failed',
      details: [{ path: 'api_key', message: expect.stringContaining('HTTP 401') }],
    });
    expect(JSON.stringify(body)).not.toContain('not-the-key');
    expect(await counts()).toEqual(before);
  });

  it('a key without configuration access: 400 at api_key naming the cause', async () => {
    const res = await importOpsgenie({ api_key: opsgenie.keyWithoutConfigAccess, dry_run: true });
    expect(res.status).toBe(400);
    expect((await bodyOf(res)).error.details[0]).toMatchObject({
      path: 'api_key',
      message: expect.stringContaining('configuration access'),
    });
  });

  it('bad input is 400 validation_failed with details, without asking Opsgenie', async () => {
    const asked = opsgenie.requests.length;
    const res = await importOpsgenie({ dry_run: 'yes', api_key: '' });
    expect(res.status).toBe(400);
    const paths = (await bodyOf(res)).error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['dry_run', 'api_key']));
    expect(opsgenie.requests.length).toBe(asked);
  });

  it('admins only', async () => {
    const member = await createTestUser(runtime, 'member');
    expect((await importOpsgenie({ dry_run: true }, member.token)).status).toBe(403);
  });
});

describe('an integration switched off in Opsgenie', () => {
  it('is created disabled, so importing turns no sender on; the answer says so', async () => {
    const key = '5c2e9a41-0b7d-4f3e-8a16-switchedoff1';
    const source = await startFakeOpsgenieApi({
      apiKey: KEY,
      data: {
        integrations: [{ id: 'off-1', name: 'Switched off', type: 'API', enabled: false, apiKey: key }],
      },
    });
    try {
      const res = await api('POST', '/api/v1/imports/opsgenie', {
        token: admin.token,
        body: { url: source.url, api_key: KEY, dry_run: false },
      });
      expect(res.status).toBe(200);
      const answer: ImportResult = await bodyOf(res);
      const entry = answer.integrations.find((i) => i.name === 'Switched off')!;
      expect(entry.note).toContain('disabled in Opsgenie, so it is created disabled here');
      const [row] = await runtime.sql`select type, enabled from integrations where key = ${key}`;
      expect(row).toEqual({ type: 'opsgenie', enabled: false });
    } finally {
      await source.close();
    }
  });
});
