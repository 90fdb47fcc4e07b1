// The whole import (docs/import-oncall.md), end to end: the shared Grafana OnCall fixtures, served by the
// fake OnCall API in small pages under a base path, imported into a database holding preexisting.json,
// compared with expected.json field by field and read back through the API; dry run, re-run, 429, bad token,
// and the imported users' setup tokens.

// The whole API app, so the imported records are read back through the routes people use.
import { createApp } from '@firebreak/api';
import {
  createTestRuntime,
  createTestUser,
  type TestRuntime,
  type TestUser,
} from '@firebreak/runtime/testing';
import type { OnCallImportResult } from '@firebreak/schema';
import { importFromOnCall, login, setupPassword } from '@firebreak/services';
import {
  bodyOf,
  type FakeOnCallApi,
  startFakeOnCallApi,
  type TestClient,
  testClient,
} from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectConflicts,
  expected,
  expectedSchedules,
  expectMatchesExpected,
  loadPreexisting,
  oncallFixturesDir,
  PREEXISTING_USER_NAME,
  policyFields,
  scheduleFields,
  userFields,
} from './support/oncall-fixtures';

const TOKEN = 'oncall-harborview-token';
let runtime: TestRuntime;
let api: TestClient;
let oncall: FakeOnCallApi;
let admin: TestUser;
let danaId: string;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(createApp({ ctx: runtime.ctx, ready: runtime.ready, config: runtime.config }));
  // Two items a page, so every endpoint but one takes several pages; under `/oncall` like Grafana Cloud.
  oncall = await startFakeOnCallApi({
    fixturesDir: oncallFixturesDir,
    token: TOKEN,
    maxPageSize: 2,
    pathPrefix: '/oncall',
  });
  admin = await createTestUser(runtime, 'admin', 'Ada Admin');
  danaId = (await loadPreexisting(runtime.sql))[0]!;
});
afterAll(async () => {
  await oncall?.close();
  await runtime?.cleanup();
});

const importOnCall = (body: Record<string, unknown>, token = admin.token) =>
  api('POST', '/api/v1/imports/oncall', { token, body: { url: oncall.url, api_token: TOKEN, ...body } });

async function counts() {
  const [row] = await runtime.sql`
    select (select count(*)::int from users) as users, (select count(*)::int from schedules) as schedules,
           (select count(*)::int from schedule_layers) as layers,
           (select count(*)::int from escalation_policies) as policies,
           (select count(*)::int from escalation_tiers) as tiers,
           (select count(*)::int from setup_tokens) as setup_tokens,
           (select count(*)::int from schedule_overrides) as overrides`;
  return row;
}

/** What a dry run and a real import must agree on: everything but ids and tokens. */
function withoutIds(answer: OnCallImportResult) {
  return JSON.parse(
    JSON.stringify({ ...answer, dry_run: undefined }, (key, value) =>
      key === 'id' || key === 'user_id' || key === 'user_ids' || key === 'schedule_id' || key === 'token'
        ? undefined
        : value,
    ),
  );
}

let dryRun: OnCallImportResult;
let imported: OnCallImportResult;

describe('dry run', () => {
  it('answers what the import would do, as expected.json says, and writes nothing', async () => {
    const before = await counts();
    const res = await importOnCall({ dry_run: true });
    expect(res.status).toBe(200);
    dryRun = await bodyOf(res);
    expect(dryRun.dry_run).toBe(true);
    expectMatchesExpected(dryRun, (tier) => tier.schedule_name);
    // Schedule tiers name their schedule; nothing has an id, no token was issued.
    expect(dryRun.escalation_policies[0]!.tiers[0]).toMatchObject({
      schedule_id: null,
      schedule_name: 'Platform Primary',
    });
    expect(dryRun.users.every((u) => u.id === null)).toBe(true);
    expect(dryRun.setup_tokens).toEqual(
      expected.users.map((u: { email: string }) => ({ email: u.email, token: null })),
    );
    expect(await counts()).toEqual(before);
  });

  it('reads every page with the raw token, page and perpage', () => {
    for (const resource of [
      'users',
      'schedules',
      'on_call_shifts',
      'escalation_policies',
      'integrations',
    ] as const) {
      const requests = oncall.requestsTo(resource);
      expect(requests.length, resource).toBeGreaterThanOrEqual(2);
      expect(requests.every((r) => r.authorization === TOKEN && r.query.perpage !== undefined)).toBe(true);
    }
    // 6 users at 2 a page: pages 1, 2, 3, then `next` is null.
    expect(oncall.requestsTo('users').map((r) => r.query.page)).toEqual(['1', '2', '3']);
  });

  it('waits out a 429 for Retry-After and answers the same', async () => {
    oncall.throttle({ resource: 'escalation_policies', retryAfter: 1 });
    const seen = oncall.requests.length;
    const started = Date.now();
    const res = await importOnCall({ dry_run: true });
    expect(res.status).toBe(200);
    expect(withoutIds(await bodyOf(res))).toEqual(withoutIds(dryRun));
    const policyRequests = oncall.requests.slice(seen).filter((r) => r.resource === 'escalation_policies');
    expect(policyRequests.map((r) => r.status)).toEqual([429, 200, 200, 200, 200]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });
});

describe('import', () => {
  it('creates what expected.json says, field by field, and answers like the dry run', async () => {
    const res = await importOnCall({});
    expect(res.status).toBe(200);
    imported = await bodyOf(res);
    expect(imported.dry_run).toBe(false);
    const names = new Map(imported.schedules.map((s) => [s.id!, s.name]));
    expectMatchesExpected(imported, (tier) => names.get(tier.schedule_id!));
    expect(withoutIds(imported)).toEqual(withoutIds(dryRun));
    expect(await counts()).toMatchObject({
      users: 2 + 5,
      schedules: 2,
      layers: 5,
      policies: 2,
      tiers: 4,
      setup_tokens: 5,
      overrides: 1,
    });
  });

  it('reads back through the API: users, schedules with layers, policies with tiers', async () => {
    const users = (await bodyOf(await api('GET', '/api/v1/users', { token: admin.token }))).users;
    const byEmail = new Map(users.map((u: { email: string }) => [u.email, u]));
    for (const user of expected.users) expect(userFields(byEmail.get(user.email) as never)).toEqual(user);
    expect(imported.users.map((u) => u.id)).toEqual(
      expected.users.map((u: { email: string }) => (byEmail.get(u.email) as { id: string }).id),
    );

    const schedules = (await bodyOf(await api('GET', '/api/v1/schedules', { token: admin.token }))).schedules;
    const inSourceOrder = expected.schedules.map((s: { name: string }) =>
      schedules.find((r: { name: string }) => r.name === s.name),
    );
    expect(inSourceOrder.map(scheduleFields)).toEqual(expectedSchedules());
    // Participants that are imported users are linked to them, not just named.
    const aliceId = (byEmail.get('alice.moreau@harborview.dev') as { id: string }).id;
    expect(inSourceOrder[0].layers[0].participants[0]).toEqual({ user_id: aliceId, name: 'Alice Moreau' });
    // The override shift "Alice covers Bruno": 09:00–17:00 Paris time, above the layers.
    const overrides = await api(
      'GET',
      `/api/v1/schedules/${inSourceOrder[0].id}/overrides?from=2025-11-20T00:00:00Z&to=2025-11-21T00:00:00Z`,
      { token: admin.token },
    );
    expect((await bodyOf(overrides)).overrides).toEqual([
      expect.objectContaining({
        user: { id: aliceId, name: 'Alice Moreau' },
        replaces_user_id: null,
        starts_at: '2025-11-20T08:00:00.000Z',
        ends_at: '2025-11-20T16:00:00.000Z',
        created_by: null,
      }),
    ]);

    const policies = (await bodyOf(await api('GET', '/api/v1/escalation-policies', { token: admin.token })))
      .escalation_policies;
    const nameOf = new Map(schedules.map((s: { id: string; name: string }) => [s.id, s.name]));
    const readBack = expected.escalation_policies.map((p: { name: string }) =>
      policyFields(
        policies.find((r: { name: string }) => r.name === p.name),
        (tier) => nameOf.get(tier.schedule_id) as string,
      ),
    );
    expect(readBack).toEqual(expected.escalation_policies);
    expect(policies.find((p: { name: string }) => p.name === 'Platform Default').tiers[1].user_ids).toEqual([
      aliceId,
      (byEmail.get('bruno.silva@harborview.dev') as { id: string }).id,
    ]);
  });

  it('leaves the user who already had the e-mail unchanged', async () => {
    const dana = await bodyOf(await api('GET', `/api/v1/users/${danaId}`, { token: admin.token }));
    expect(dana).toMatchObject({
      email: 'dana.k@harborview.dev',
      name: PREEXISTING_USER_NAME,
      role: 'member',
    });
  });

  it('a second run skips everything as conflicts and creates no duplicates', async () => {
    const before = await counts();
    const res = await importOnCall({});
    expect(res.status).toBe(200);
    const again: OnCallImportResult = await bodyOf(res);
    expect(again.summary).toEqual({
      users: { created: 0, skipped: 6 },
      schedules: { created: 0, skipped: 3 },
      escalation_policies: { created: 0, skipped: 2 },
      integrations: { created: 0, skipped: 0 },
    });
    expect(again.users).toEqual([]);
    expect(again.schedules).toEqual([]);
    expect(again.escalation_policies).toEqual([]);
    expect(again.setup_tokens).toEqual([]);
    expectConflicts(again, [
      ...expected.users.map((u: { name: string }) => ({ kind: 'user', name: u.name })),
      { kind: 'user', name: 'Dana Kovacs' },
      { kind: 'schedule', name: 'Platform Primary' },
      { kind: 'schedule', name: 'Payments Business Hours' },
      { kind: 'escalation_policy', name: 'Platform Default' },
      { kind: 'escalation_policy', name: 'Payments Critical' },
    ]);
    expect(await counts()).toEqual(before);
  });
});

describe('imported users and their setup tokens', () => {
  it('are local and active, with a random password nobody knows', async () => {
    const [row] =
      await runtime.sql`select auth_source, active, password_hash from users where email = 'eli.novak@harborview.dev'`;
    expect(row).toMatchObject({
      auth_source: 'local',
      active: true,
      password_hash: expect.stringMatching(/^scrypt\$/),
    });
    const distinct = await runtime.sql`
      select count(distinct password_hash)::int as n from users where email like '%@harborview.dev' and email <> 'dana.k@harborview.dev'`;
    expect(distinct[0]!.n).toBe(5);
  });

  it('set the password once through POST /api/v1/auth/setup; the user can then log in', async () => {
    const grant = imported.setup_tokens.find((t) => t.email === 'bruno.silva@harborview.dev')!;
    expect(grant.token).toMatch(/^fbp_[A-Za-z0-9_-]{43}$/);
    const res = await api('POST', '/api/v1/auth/setup', {
      body: { token: grant.token, password: 'harbor-lights-42' },
    });
    expect(res.status).toBe(200);
    expect((await bodyOf(res)).user).toMatchObject({
      email: 'bruno.silva@harborview.dev',
      name: 'Bruno Silva',
    });
    const session = await api('POST', '/api/v1/auth/login', {
      body: { email: 'bruno.silva@harborview.dev', password: 'harbor-lights-42' },
    });
    expect(session.status).toBe(200);

    const again = await api('POST', '/api/v1/auth/setup', {
      body: { token: grant.token, password: 'another-password' },
    });
    expect(again.status).toBe(401);
    expect((await bodyOf(again)).error).toMatchObject({
      code: 'unauthorized',
      message: expect.stringContaining('already used'),
    });
    await expect(
      login(runtime.ctx, { email: 'bruno.silva@harborview.dev', password: 'another-password' }),
    ).rejects.toThrow();
  });

  it('expire after 7 days', async () => {
    const day = 24 * 60 * 60 * 1000;
    const at = (ms: number) => ({ ...runtime.ctx, now: () => new Date(Date.now() + ms) });
    const eli = imported.setup_tokens.find((t) => t.email === 'eli.novak@harborview.dev')!.token!;
    await expect(
      setupPassword(at(7 * day + 60_000), { token: eli, password: 'too-late-now' }),
    ).rejects.toMatchObject({
      code: 'unauthorized',
    });
    const chen = imported.setup_tokens.find((t) => t.email === 'chen.wei@harborview.dev')!.token!;
    const user = await setupPassword(at(7 * day - 60_000), { token: chen, password: 'just-in-time' });
    expect(user.email).toBe('chen.wei@harborview.dev');
  });

  it('refuse a body that is not {token, password}', async () => {
    const res = await api('POST', '/api/v1/auth/setup', { body: { token: 'fbp_x', password: 'short' } });
    expect(res.status).toBe(400);
    expect((await bodyOf(res)).error.details).toEqual([
      { path: 'password', message: 'must be at least 8 characters' },
    ]);
  });
});

describe('errors', () => {
  it('a bad token: OnCall answers 403, the import 400 at api_token, nothing written', async () => {
    const before = await counts();
    const res = await importOnCall({ api_token: 'not-the-token' });
    expect(res.status).toBe(400);
    const { error } = await bodyOf(res);
    expect(error).toMatchObject({
      code: 'validation_failed',
      message: 'Grafana OnCall refused the API token (HTTP 403: Invalid token.).',
      details: [{ path: 'api_token', message: expect.stringContaining('403') }],
    });
    expect(await counts()).toEqual(before);
  });

  it('a URL that is not the OnCall API, or answers nothing, is 400 at url', async () => {
    const withoutPrefix = await importOnCall({ url: oncall.url.replace(/\/oncall$/, ''), dry_run: true });
    expect(withoutPrefix.status).toBe(400);
    expect((await bodyOf(withoutPrefix)).error.details[0]).toMatchObject({
      path: 'url',
      message: expect.stringContaining('OnCall API URL'),
    });
    const malformed = await importOnCall({ url: 'oncall.example.com' });
    expect((await bodyOf(malformed)).error.details).toEqual([
      { path: 'url', message: 'must be an http:// or https:// URL' },
    ]);
  });

  it('only admins may import; a misspelt option is refused rather than ignored', async () => {
    const member = await createTestUser(runtime, 'member');
    expect((await importOnCall({ dry_run: true }, member.token)).status).toBe(403);
    expect((await api('POST', '/api/v1/imports/oncall', { body: {} })).status).toBe(401);
    const typo = await importOnCall({ dryrun: true });
    expect(typo.status).toBe(400);
    expect((await bodyOf(typo)).error.details[0].path).toBe('');
  });

  it('never logs the OnCall token or a setup token', () => {
    const text = JSON.stringify(runtime.logs.lines);
    expect(text).toContain('oncall import finished');
    expect(text).not.toContain(TOKEN);
    for (const grant of imported.setup_tokens) expect(text).not.toContain(grant.token);
  });
});

describe('two imports at once', () => {
  it('create everything once: a second that collides fails with 409 conflict, or finds it all there', async () => {
    const fresh = await createTestRuntime();
    try {
      const input = { url: oncall.url, apiToken: TOKEN, dryRun: false };
      const results = await Promise.allSettled([
        importFromOnCall(fresh.ctx, input),
        importFromOnCall(fresh.ctx, input),
      ]);
      // Which of the two interleavings happens is up to timing; neither may duplicate anything.
      const created = results.map((r) => (r.status === 'fulfilled' ? r.value.summary.users.created : 0));
      expect(created.sort()).toEqual([0, 6]);
      for (const result of results) {
        if (result.status === 'rejected') {
          expect(result.reason).toMatchObject({
            code: 'conflict',
            message: expect.stringContaining('run it again'),
          });
        }
      }
      const [row] = await fresh.sql`
        select (select count(*)::int from users) as users, (select count(*)::int from schedules) as schedules,
               (select count(*)::int from escalation_policies) as policies`;
      expect(row).toEqual({ users: 6, schedules: 2, policies: 2 });
    } finally {
      await fresh.cleanup();
    }
  });
});
