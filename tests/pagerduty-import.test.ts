// The PagerDuty import (docs/import-pagerduty.md), end to end: the fixture account served by the fake
// PagerDuty REST API in small pages, imported through POST /api/v1/imports/pagerduty into a database that
// already holds a user, a schedule, a policy and an integration key of that account; dry run, real import,
// second run, one transaction, refused tokens and bad input.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createApp } from '@firebreak/api';
import { escalationPolicies, integrations, schedules, users } from '@firebreak/db';
import {
  createTestRuntime,
  createTestUser,
  type TestRuntime,
  type TestUser,
} from '@firebreak/runtime/testing';
import type { ImportResult } from '@firebreak/schema';
import { importFromPagerDuty } from '@firebreak/services';
import {
  bodyOf,
  type FakePagerDutyApi,
  pagerdutyFixturesDir,
  startFakePagerDutyApi,
  type TestClient,
  testClient,
} from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const TOKEN = 'pagerduty-northwind-token';
const preexisting = JSON.parse(readFileSync(resolve(pagerdutyFixturesDir, 'preexisting.json'), 'utf8'));
let runtime: TestRuntime;
let api: TestClient;
let pagerduty: FakePagerDutyApi;
let admin: TestUser;

/** What the fixture account's import must find here already (preexisting.json). */
async function loadPreexisting(runtime: TestRuntime): Promise<void> {
  const { sql } = runtime;
  const at = new Date();
  for (const email of preexisting.user_emails)
    await users.insertUser(sql, { email, name: 'Gita (ours)', role: 'member' });
  for (const name of preexisting.schedule_names)
    await schedules.insertSchedule(sql, { name, timezone: 'UTC', at });
  for (const name of preexisting.policy_names) {
    await escalationPolicies.insertPolicy(sql, { name, description: '', enabled: true, repeat: 0, at });
  }
  for (const key of preexisting.integration_keys) {
    await integrations.insertIntegration(
      sql,
      {
        name: 'Airflow (ours)',
        type: 'pagerduty',
        enabled: true,
        key,
        escalationPolicyId: null,
        labels: {},
        heartbeat: null,
      },
      at,
    );
  }
}

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(createApp({ ctx: runtime.ctx, ready: runtime.ready, config: runtime.config }));
  // Two items a page, so users, schedules and policies each take several pages.
  pagerduty = await startFakePagerDutyApi({ fixturesDir: pagerdutyFixturesDir, token: TOKEN, maxLimit: 2 });
  admin = await createTestUser(runtime, 'admin', 'Ada Admin');
  await loadPreexisting(runtime);
});
afterAll(async () => {
  await pagerduty?.close();
  await runtime?.cleanup();
});

const importPagerDuty = (body: Record<string, unknown>, token = admin.token) =>
  api('POST', '/api/v1/imports/pagerduty', {
    token,
    body: { url: pagerduty.url, api_token: TOKEN, ...body },
  });

async function counts() {
  const [row] = await runtime.sql`
    select (select count(*)::int from users) as users, (select count(*)::int from schedules) as schedules,
           (select count(*)::int from schedule_layers) as layers,
           (select count(*)::int from escalation_policies) as policies,
           (select count(*)::int from escalation_tiers) as tiers,
           (select count(*)::int from integrations) as integrations,
           (select count(*)::int from setup_tokens) as setup_tokens`;
  return row!;
}

/** What a dry run and a real import must agree on: everything but ids and tokens. */
function withoutIds(answer: ImportResult) {
  return JSON.parse(
    JSON.stringify({ ...answer, dry_run: undefined }, (key, value) =>
      ['id', 'user_id', 'user_ids', 'schedule_id', 'integration_id', 'token'].includes(key)
        ? undefined
        : value,
    ),
  );
}

let dryRun: ImportResult;
let imported: ImportResult;

describe('dry run', () => {
  it('answers what the import would do and writes nothing', async () => {
    const before = await counts();
    const res = await importPagerDuty({ dry_run: true });
    expect(res.status).toBe(200);
    dryRun = await bodyOf(res);
    expect(dryRun.summary).toEqual({
      users: { created: 6, skipped: 1 },
      schedules: { created: 2, skipped: 1 },
      escalation_policies: { created: 2, skipped: 1 },
      integrations: { created: 3, skipped: 1 },
    });
    expect(dryRun.integrations.every((i) => i.integration_id === null)).toBe(true);
    expect(dryRun.setup_tokens.every((t) => t.token === null)).toBe(true);
    expect(await counts()).toEqual(before);
  });

  it('read every page by offset, the layers, the overrides window and the deleted user', () => {
    expect(
      pagerduty
        .requestsTo('users')
        .filter((r) => r.path.startsWith('/users?'))
        .map((r) => r.query.get('offset')),
    ).toEqual(['0', '2', '4', '6']);
    const schedules = pagerduty.requestsTo('schedules').filter((r) => r.path.startsWith('/schedules?'));
    expect(schedules.every((r) => r.query.getAll('include[]').includes('schedule_layers'))).toBe(true);
    const overrides = pagerduty.requestsTo('overrides');
    expect(overrides).toHaveLength(3);
    for (const request of overrides) {
      const days =
        (Date.parse(request.query.get('until')!) - Date.parse(request.query.get('since')!)) / 86_400_000;
      expect(days).toBe(90);
    }
    expect(pagerduty.requests.filter((r) => r.path === '/users/PGONE99').map((r) => r.status)).toEqual([404]);
    expect(pagerduty.requests.every((r) => r.authorization === `Token token=${TOKEN}`)).toBe(true);
  });

  it('waits out a 429 and a server-chosen smaller page, and answers the same', async () => {
    pagerduty.throttle({ resource: 'escalation_policies', reset: 1 });
    pagerduty.shortPageOnce('users', 1);
    const seen = pagerduty.requests.length;
    const res = await importPagerDuty({ dry_run: true });
    expect(res.status).toBe(200);
    expect(withoutIds(await bodyOf(res))).toEqual(withoutIds(dryRun));
    const later = pagerduty.requests.slice(seen);
    expect(later.filter((r) => r.resource === 'escalation_policies').map((r) => r.status)).toEqual([
      429, 200, 200,
    ]);
    expect(later.filter((r) => r.path.startsWith('/users?')).map((r) => r.query.get('offset'))).toEqual([
      '0',
      '1',
      '3',
      '5',
    ]);
  });
});

describe('import', () => {
  it('creates everything in the answer, as the dry run said', async () => {
    const before = await counts();
    const res = await importPagerDuty({});
    expect(res.status).toBe(200);
    imported = await bodyOf(res);
    expect(withoutIds(imported)).toEqual(withoutIds(dryRun));
    expect(await counts()).toEqual({
      ...before,
      users: before.users + 6,
      schedules: before.schedules + 2,
      layers: before.layers + 3,
      policies: before.policies + 2,
      tiers: before.tiers + 5,
      integrations: before.integrations + 3,
      setup_tokens: before.setup_tokens + 6,
    });
  });

  it('keeps the integration keys, under the service’s imported policy, so senders change only the host', async () => {
    const policies = new Map(imported.escalation_policies.map((p) => [p.name, p.id]));
    const created = imported.integrations.filter((i) => i.integration_id !== null);
    expect(created.map((i) => [i.name, i.webhook_path])).toEqual([
      ['Checkout API / Prometheus', '/v2/enqueue'],
      ['Checkout API / Legacy Nagios', '/generic/2010-04-15/create_event.json'],
      ['Payments / Alertmanager', '/v2/enqueue'],
    ]);
    const rows = await runtime.sql<
      { name: string; type: string; key: string; enabled: boolean; policy: string }[]
    >`
      select name, type, key, enabled, escalation_policy_id as policy from integrations
      where id = any(${created.map((i) => i.integration_id!)}::uuid[]) order by created_at, name`;
    expect(new Map(rows.map((r) => [r.name, r]))).toEqual(
      new Map([
        [
          'Checkout API / Prometheus',
          {
            name: 'Checkout API / Prometheus',
            type: 'pagerduty',
            key: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
            enabled: true,
            policy: policies.get('Platform Default'),
          },
        ],
        [
          'Checkout API / Legacy Nagios',
          {
            name: 'Checkout API / Legacy Nagios',
            type: 'pagerduty',
            key: '0f1e2d3c4b5a69788796a5b4c3d2e1f0',
            enabled: true,
            policy: policies.get('Platform Default'),
          },
        ],
        [
          'Payments / Alertmanager',
          {
            name: 'Payments / Alertmanager',
            type: 'pagerduty',
            key: '9a8b7c6d5e4f30211203f4e5d6c7b8a9',
            enabled: true,
            policy: policies.get('Payments Critical'),
          },
        ],
      ]),
    );
  });

  it('reads back through the API: layers in precedence order, loops as repeat, deleted users as names', async () => {
    const schedules = (await bodyOf(await api('GET', '/api/v1/schedules', { token: admin.token }))).schedules;
    const platform = schedules.find((s: { name: string }) => s.name === 'Platform Primary');
    expect(platform.timezone).toBe('Europe/Paris');
    expect(
      platform.layers.map((l: { name: string; order_index: number }) => [l.order_index, l.name]),
    ).toEqual([
      [0, 'Primary weekly'],
      [1, 'Weekend cover'],
    ]);
    expect(
      platform.layers[0].participants.map((p: { name: string; user_id: string | null }) => [
        p.name,
        p.user_id !== null,
      ]),
    ).toEqual([
      ['Ada Lovelace', true],
      ['Ben Okafor', true],
      ['Old Timer', false],
    ]);
    const policies = (await bodyOf(await api('GET', '/api/v1/escalation-policies', { token: admin.token })))
      .escalation_policies;
    const platformPolicy = policies.find((p: { name: string }) => p.name === 'Platform Default');
    expect(platformPolicy).toMatchObject({ repeat: 2, description: 'Imported from PagerDuty' });
    expect(
      platformPolicy.tiers.map((t: { target_type: string; timeout_seconds: number }) => [
        t.target_type,
        t.timeout_seconds,
      ]),
    ).toEqual([
      ['schedule', 900],
      ['users', 600],
      ['schedule', 300],
    ]);
    expect(platformPolicy.tiers[1].user_names).toEqual(['Ada Lovelace', 'Old Timer']);
    expect(platformPolicy.tiers[1].user_ids[1]).toBeNull();
  });

  it('a second run skips everything as conflicts and creates no duplicates', async () => {
    const before = await counts();
    const res = await importPagerDuty({});
    expect(res.status).toBe(200);
    const again: ImportResult = await bodyOf(res);
    expect(again.summary).toEqual({
      users: { created: 0, skipped: 7 },
      schedules: { created: 0, skipped: 3 },
      escalation_policies: { created: 0, skipped: 3 },
      integrations: { created: 0, skipped: 4 },
    });
    expect(again.conflicts.filter((c) => c.kind === 'integration').map((c) => c.reason)).toEqual(
      Array(4).fill('an integration with this key already exists'),
    );
    expect(await counts()).toEqual(before);
  });

  it('never logs the PagerDuty token, an integration key or a setup token', () => {
    const text = JSON.stringify(runtime.logs.lines);
    expect(text).toContain('pagerduty import finished');
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('a1b2c3d4e5f60718293a4b5c6d7e8f90');
    for (const grant of imported.setup_tokens) expect(text).not.toContain(grant.token);
  });
});

describe('one transaction', () => {
  it('a write that fails at the last step leaves nothing behind', async () => {
    const fresh = await createTestRuntime();
    try {
      await fresh.sql`create function refuse() returns trigger language plpgsql as
        $$ begin raise exception 'refused for the test'; end $$`;
      await fresh.sql`create trigger refuse before insert on integrations for each row execute function refuse()`;
      const input = { url: pagerduty.url, apiToken: TOKEN, dryRun: false };
      await expect(importFromPagerDuty(fresh.ctx, input)).rejects.toThrow('refused for the test');
      const [row] = await fresh.sql`
        select (select count(*)::int from users) as users, (select count(*)::int from schedules) as schedules,
               (select count(*)::int from escalation_policies) as policies,
               (select count(*)::int from setup_tokens) as setup_tokens`;
      expect(row).toEqual({ users: 0, schedules: 0, policies: 0, setup_tokens: 0 });
    } finally {
      await fresh.cleanup();
    }
  });
});

describe('refusals', () => {
  it('a refused token is 400 at api_token, and nothing is written', async () => {
    const before = await counts();
    const res = await importPagerDuty({ api_token: 'not-the-token' });
    expect(res.status).toBe(400);
    expect((await bodyOf(res)).error).toMatchObject({
      code: 'validation_failed',
      details: [
        { path: 'api_token', message: expect.stringContaining('PagerDuty refused the API token (HTTP 401') },
      ],
    });
    expect(await counts()).toEqual(before);
  });

  it('only admins may import; bad input is 400 with details', async () => {
    const member = await createTestUser(runtime, 'member');
    expect((await importPagerDuty({ dry_run: true }, member.token)).status).toBe(403);
    const typo = await importPagerDuty({ dryrun: true });
    expect(typo.status).toBe(400);
    const badUrl = await importPagerDuty({ url: 'api.pagerduty.com' });
    expect((await bodyOf(badUrl)).error.details).toEqual([
      { path: 'url', message: 'must be an http:// or https:// URL' },
    ]);
    const noToken = await api('POST', '/api/v1/imports/pagerduty', {
      token: admin.token,
      body: { dry_run: true },
    });
    expect((await bodyOf(noToken)).error.details[0].path).toBe('api_token');
  });
});
