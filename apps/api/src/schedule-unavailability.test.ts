// Unavailability in schedules (docs/api.md#unavailability, docs/schedules.md#unavailability): who may
// mark whom, each refusal with nothing stored, the conflicts with overrides both ways, and that the
// shifts, who-is-on-call and the escalation engine all give the turn to the person covering.
import { createTestUser, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import { resolveTargets, runDueEscalations } from '@firebreak/services';
import { bodyOf, type TestClient } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOnCallTestApp } from './oncall-test-app';

let runtime: TestRuntime;
let api: TestClient;
let admin: TestUser;
let member: TestUser;
let viewer: TestUser;
let ana: TestUser;
let ben: TestUser;

beforeAll(async () => {
  ({ runtime, api, admin, member, viewer, ana, ben } = await startOnCallTestApp());
  await runtime.sql`update users set slack_user_id = 'U0BEN' where id = ${ben.id}`;
});
afterAll(() => runtime.cleanup());

const DAY_MS = 86_400_000;
/** The next whole UTC day: every date below is an offset from it, so the tests never fall into the past. */
const day0 = Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS;
/** `days` after day 0 at `hours`:`minutes` UTC, as the API answers it. */
const t = (days: number, hours = 0, minutes = 0) =>
  new Date(day0 + days * DAY_MS + hours * 3_600_000 + minutes * 60_000).toISOString();
/** The same instant written with an explicit offset, as a client may send it. */
const offset = (iso: string) => iso.replace(/\.000Z$/, '+00:00');

let counter = 0;
/**
 * A daily rotation from day 0 at 09:00 UTC (ahead of the test run): Ana, then Ben, round and round, so
 * the turn from day k at 09:00 is Ana's for an even k and Ben's for an odd one.
 */
async function schedule(participants: string[] = [ana.id, ben.id], rotationStart = t(0, 9)) {
  const res = await api('POST', '/api/v1/schedules', {
    token: admin.token,
    body: {
      name: `Unavailability ${++counter}`,
      layers: [{ name: 'Days', rotation_start: rotationStart, shift_duration_seconds: 86_400, participants }],
    },
  });
  expect(res.status).toBe(201);
  return (await bodyOf(res)).id as string;
}

const markAway = (id: string, body: Record<string, unknown>, token = admin.token) =>
  api('POST', `/api/v1/schedules/${id}/unavailability`, { token, body });
const addOverride = (id: string, body: Record<string, unknown>, token = admin.token) =>
  api('POST', `/api/v1/schedules/${id}/overrides`, { token, body });
const stored = async (id: string) =>
  runtime.sql`select id from schedule_unavailability where schedule_id = ${id}`;

async function shifts(path: string, from: string, to: string) {
  const res = await api('GET', `${path}?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`, {
    token: viewer.token,
  });
  expect(res.status).toBe(200);
  return (await bodyOf(res)).shifts as Array<Record<string, unknown>>;
}

const onCallName = async (id: string, at: string) =>
  (await bodyOf(await api('GET', `/api/v1/schedules/${id}/on-call?at=${at}`, { token: viewer.token })))
    .users[0]?.name;

describe('marking unavailability', () => {
  it('a member marks themselves: the turn goes to the next participant, the shifts say who covers, audited', async () => {
    const id = await schedule();
    const res = await markAway(
      id,
      { user_id: ana.id, starts_at: t(0, 12), ends_at: offset(t(0, 18)) },
      ana.token,
    );
    expect(res.status).toBe(201);
    const created = await bodyOf(res);
    expect(created).toEqual({
      id: expect.any(String),
      schedule_id: id,
      user: { id: ana.id, name: 'Ana Alves' },
      starts_at: t(0, 12),
      ends_at: t(0, 18),
      created_by: ana.id,
      created_at: expect.any(String),
      // Ben is there to cover the whole range.
      leaves_gap: false,
    });
    const { leaves_gap: _, ...range } = created;

    expect(await onCallName(id, t(0, 11, 59))).toBe('Ana Alves');
    expect(await onCallName(id, t(0, 12))).toBe('Ben Brandt');
    expect(await onCallName(id, t(0, 18))).toBe('Ana Alves');
    const layer = { schedule_id: id, source: 'layer', layer_name: 'Days' };
    expect(await shifts(`/api/v1/schedules/${id}/shifts`, t(0, 9), t(1, 12))).toEqual([
      {
        user: { id: ana.id, name: 'Ana Alves' },
        starts_at: t(0, 9),
        ends_at: t(0, 12),
        ...layer,
      },
      {
        user: { id: ben.id, name: 'Ben Brandt' },
        starts_at: t(0, 12),
        ends_at: t(0, 18),
        ...layer,
        covering_for: { user_id: ana.id, name: 'Ana Alves', reason: 'unavailable' },
      },
      {
        user: { id: ana.id, name: 'Ana Alves' },
        starts_at: t(0, 18),
        ends_at: t(1, 9),
        ...layer,
      },
      {
        user: { id: ben.id, name: 'Ben Brandt' },
        starts_at: t(1, 9),
        ends_at: t(1, 12),
        ...layer,
      },
    ]);
    // Ben's own list of shifts carries the same cover.
    const bens = (await shifts(`/api/v1/users/${ben.id}/shifts`, t(0), t(1))).filter(
      (s) => s.schedule_id === id,
    );
    expect(bens).toEqual([
      expect.objectContaining({ covering_for: expect.objectContaining({ user_id: ana.id }) }),
    ]);

    const list = await api('GET', `/api/v1/schedules/${id}/unavailability?from=${t(-3)}&to=${t(27)}`, {
      token: viewer.token,
    });
    expect(list.status).toBe(200);
    expect((await bodyOf(list)).unavailability).toEqual([range]);
    const [audit] = await runtime.sql`
      select actor_id, action, after from audit_log
      where entity_type = 'schedule_unavailability' and entity_id = ${created.id}`;
    expect(audit).toMatchObject({ actor_id: ana.id, action: 'create', after: range });
  });

  it('says when the range leaves the schedule with nobody on call', async () => {
    const alone = await schedule([ana.id]);
    const gap = await markAway(alone, { user_id: ana.id, starts_at: t(2, 10), ends_at: t(2, 11) });
    expect(gap.status).toBe(201);
    expect((await bodyOf(gap)).leaves_gap).toBe(true);
    // Ben covers Ana's day, except for the hour he is away too.
    const id = await schedule();
    await markAway(id, { user_id: ben.id, starts_at: t(2, 15), ends_at: t(2, 16) });
    const partly = await bodyOf(
      await markAway(id, { user_id: ana.id, starts_at: t(2, 10), ends_at: t(2, 20) }),
    );
    expect(partly.leaves_gap).toBe(true);
    const covered = await bodyOf(
      await markAway(id, { user_id: ana.id, starts_at: t(4, 10), ends_at: t(4, 20) }),
    );
    expect(covered.leaves_gap).toBe(false);
  });

  it('answers 400 with nothing stored for a reversed, too long or past range, or someone who cannot take a turn', async () => {
    const id = await schedule();
    const outsider = await createTestUser(runtime, 'member', 'Otto Outsider');
    const gone = await createTestUser(runtime, 'member', 'Gina Gone');
    const withGone = await schedule([ana.id, gone.id]);
    await runtime.sql`update users set active = false where id = ${gone.id}`;
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [id, { user_id: ana.id, starts_at: t(1, 12), ends_at: t(1, 11) }, 'ends_at'],
      [id, { user_id: ana.id, starts_at: t(-3), ends_at: t(88) }, 'ends_at'],
      [id, { user_id: ana.id, starts_at: t(-368), ends_at: t(-367) }, 'ends_at'],
      [
        id,
        {
          user_id: '00000000-0000-4000-8000-000000000000',
          starts_at: t(1, 10),
          ends_at: t(1, 11),
        },
        'user_id',
      ],
      [id, { user_id: outsider.id, starts_at: t(1, 10), ends_at: t(1, 11) }, 'user_id'],
      [withGone, { user_id: gone.id, starts_at: t(1, 10), ends_at: t(1, 11) }, 'user_id'],
      [id, { user_id: ana.id, starts_at: 'next week', ends_at: t(1, 11) }, 'starts_at'],
    ];
    for (const [scheduleId, body, path] of cases) {
      const res = await markAway(scheduleId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const { error } = await bodyOf(res);
      expect(error.code).toBe('validation_failed');
      expect(error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    const details = (await bodyOf(await markAway(id, cases[4]![1]))).error.details;
    expect(details[0].message).toContain('takes part in no layer');
    expect(await stored(id)).toHaveLength(0);
    expect(await stored(withGone)).toHaveLength(0);
    // A range that began this morning but is not over is fine.
    const now = Date.now();
    const ongoing = await markAway(id, {
      user_id: ana.id,
      starts_at: new Date(now - 3 * 3_600_000).toISOString(),
      ends_at: new Date(now + 3_600_000).toISOString(),
    });
    expect(ongoing.status).toBe(201);
    const missing = await markAway('00000000-0000-4000-8000-000000000000', {
      user_id: ana.id,
      starts_at: t(1, 10),
      ends_at: t(1, 11),
    });
    expect(missing.status).toBe(404);
  });

  it('a member marks only themselves and deletes only their own; a viewer neither; an admin anyone', async () => {
    const id = await schedule();
    const range = { starts_at: t(6), ends_at: t(7) };
    expect((await markAway(id, { user_id: ben.id, ...range }, ana.token)).status).toBe(403);
    expect((await markAway(id, { user_id: ana.id, ...range }, viewer.token)).status).toBe(403);
    const anas = await bodyOf(await markAway(id, { user_id: ana.id, ...range }, ana.token));
    // Entered by an admin, but it is Ben's: Ben may remove it.
    const bens = await bodyOf(await markAway(id, { user_id: ben.id, ...range }));
    expect(bens.created_by).toBe(admin.id);
    const remove = (rangeId: string, token: string) =>
      api('DELETE', `/api/v1/schedules/${id}/unavailability/${rangeId}`, { token });
    expect((await remove(bens.id, ana.token)).status).toBe(403);
    expect((await remove(anas.id, viewer.token)).status).toBe(403);
    expect((await remove(anas.id, member.token)).status).toBe(403);
    expect((await remove(bens.id, ben.token)).status).toBe(204);
    expect((await remove(bens.id, ben.token)).status).toBe(404);
    expect((await remove(anas.id, admin.token)).status).toBe(204);
    expect(await stored(id)).toHaveLength(0);
    const other = await schedule();
    const elsewhere = await bodyOf(await markAway(other, { user_id: ana.id, ...range }));
    expect((await remove(elsewhere.id, admin.token)).status).toBe(404);
    const rows = await runtime.sql`
      select action, actor_id from audit_log
      where entity_type = 'schedule_unavailability' and entity_id = ${bens.id} order by seq`;
    expect(rows.map((r) => [r.action, r.actor_id])).toEqual([
      ['create', admin.id],
      ['delete', ben.id],
    ]);
  });
});

describe('conflicts with overrides', () => {
  it('refuses a range in which an override puts the person on call, naming the override', async () => {
    const id = await schedule();
    const override = await bodyOf(
      await addOverride(id, {
        user_id: ana.id,
        starts_at: t(28, 10),
        ends_at: t(28, 12),
      }),
    );
    const res = await markAway(id, { user_id: ana.id, starts_at: t(28), ends_at: t(29) }, ana.token);
    expect(res.status).toBe(409);
    const { error } = await bodyOf(res);
    expect(error.code).toBe('unavailability_conflict');
    expect(error.message).toContain(override.id);
    expect(error.message).toContain(t(28, 10));
    expect(error.message).toContain(t(28, 12));
    expect(error.details).toEqual({
      override_id: override.id,
      starts_at: t(28, 10),
      ends_at: t(28, 12),
    });
    expect(await stored(id)).toHaveLength(0);
    // Right after the override ends is no conflict; neither is an override moving someone else in.
    await addOverride(id, {
      user_id: member.id,
      replaces_user_id: ana.id,
      starts_at: t(28, 12),
      ends_at: t(28, 20),
    });
    const after = await markAway(id, { user_id: ana.id, starts_at: t(28, 12), ends_at: t(29) }, ana.token);
    expect(after.status).toBe(201);
    // The override replacing Ana still applies now that Ben covers for her: the member, not Ben, 12–20.
    const layer = { schedule_id: id, source: 'layer', layer_name: 'Days' };
    const covering = { covering_for: { user_id: ana.id, name: 'Ana Alves', reason: 'unavailable' } };
    const anaUser = { id: ana.id, name: 'Ana Alves' };
    expect(await shifts(`/api/v1/schedules/${id}/shifts`, t(28, 9), t(29, 9))).toEqual([
      { user: anaUser, starts_at: t(28, 9), ends_at: t(28, 10), ...layer },
      { user: anaUser, starts_at: t(28, 10), ends_at: t(28, 12), schedule_id: id, source: 'override' },
      {
        user: expect.objectContaining({ id: member.id }),
        starts_at: t(28, 12),
        ends_at: t(28, 20),
        schedule_id: id,
        source: 'override',
      },
      {
        user: { id: ben.id, name: 'Ben Brandt' },
        starts_at: t(28, 20),
        ends_at: t(29),
        ...layer,
        ...covering,
      },
      { user: anaUser, starts_at: t(29), ends_at: t(29, 9), ...layer },
    ]);
    expect(await onCallName(id, t(28, 19))).not.toBe('Ben Brandt');
    expect(await onCallName(id, t(28, 21))).toBe('Ben Brandt');
  });

  it('refuses an override that puts someone on call while they are unavailable; others may cover', async () => {
    const id = await schedule();
    const away = await bodyOf(
      await markAway(id, {
        user_id: ana.id,
        starts_at: t(56),
        ends_at: t(58),
      }),
    );
    const res = await addOverride(
      id,
      { user_id: ana.id, starts_at: t(57, 22), ends_at: t(58, 6) },
      ana.token,
    );
    expect(res.status).toBe(409);
    const { error } = await bodyOf(res);
    expect(error.code).toBe('unavailability_conflict');
    expect(error.message).toContain(`Ana Alves is unavailable from ${t(56)} to ${t(58)}`);
    expect(error.details).toMatchObject({ unavailability_id: away.id });
    expect(await runtime.sql`select id from schedule_overrides where schedule_id = ${id}`).toHaveLength(0);
    const cover = await addOverride(id, {
      user_id: member.id,
      starts_at: t(57, 22),
      ends_at: t(58, 6),
    });
    expect(cover.status).toBe(201);
    expect(
      (
        await addOverride(id, {
          user_id: ana.id,
          starts_at: t(58),
          ends_at: t(58, 6),
        })
      ).status,
    ).toBe(201);
  });
});

describe('limits', () => {
  it('refuses a range overlapping another of the same person in the schedule, naming it', async () => {
    const id = await schedule();
    const first = await bodyOf(await markAway(id, { user_id: ana.id, starts_at: t(3), ends_at: t(5) }));
    const res = await markAway(id, { user_id: ana.id, starts_at: t(4, 12), ends_at: t(6) }, ana.token);
    expect(res.status).toBe(409);
    const { error } = await bodyOf(res);
    expect(error.code).toBe('unavailability_conflict');
    expect(error.message).toContain(`Ana Alves is already unavailable from ${t(3)} to ${t(5)}`);
    expect(error.message).toContain(first.id);
    expect(error.details).toEqual({ unavailability_id: first.id, starts_at: t(3), ends_at: t(5) });
    // Inside it, around it: refused too; nothing more stored.
    expect((await markAway(id, { user_id: ana.id, starts_at: t(3, 6), ends_at: t(3, 7) })).status).toBe(409);
    expect((await markAway(id, { user_id: ana.id, starts_at: t(2), ends_at: t(8) })).status).toBe(409);
    expect(await stored(id)).toHaveLength(1);
    // Touching is no overlap; neither is someone else's range, nor the same person in another schedule.
    expect((await markAway(id, { user_id: ana.id, starts_at: t(5), ends_at: t(6) })).status).toBe(201);
    expect((await markAway(id, { user_id: ben.id, starts_at: t(3), ends_at: t(5) })).status).toBe(201);
    const other = await schedule();
    expect((await markAway(other, { user_id: ana.id, starts_at: t(3), ends_at: t(5) })).status).toBe(201);
  });

  it('allows at most 50 ranges not yet over per person and schedule; past ones do not count', async () => {
    const id = await schedule();
    // 49 ahead and 3 over, stored directly: the API would take a request for each.
    for (let i = 0; i < 49; i += 1) {
      await runtime.sql`
        insert into schedule_unavailability (schedule_id, user_id, starts_at, ends_at)
        values (${id}, ${ana.id}, ${t(i, 1)}, ${t(i, 2)})`;
    }
    for (let i = 1; i <= 3; i += 1) {
      await runtime.sql`
        insert into schedule_unavailability (schedule_id, user_id, starts_at, ends_at)
        values (${id}, ${ana.id}, ${t(-i - 10, 1)}, ${t(-i - 10, 2)})`;
    }
    const fiftieth = await markAway(id, { user_id: ana.id, starts_at: t(60), ends_at: t(61) }, ana.token);
    expect(fiftieth.status).toBe(201);
    const res = await markAway(id, { user_id: ana.id, starts_at: t(62), ends_at: t(63) }, ana.token);
    expect(res.status).toBe(409);
    const { error } = await bodyOf(res);
    expect(error.code).toBe('unavailability_conflict');
    expect(error.message).toContain('at most 50');
    expect(error.details).toEqual({ limit: 50 });
    expect(await stored(id)).toHaveLength(53);
    // Ben has his own allowance.
    expect((await markAway(id, { user_id: ben.id, starts_at: t(62), ends_at: t(63) })).status).toBe(201);
  });

  it('a member may not backdate a range (5 minutes’ grace); an admin may record a past absence', async () => {
    const id = await schedule();
    const now = Date.now();
    const threeDaysAgo = new Date(now - 3 * DAY_MS).toISOString();
    const later = new Date(now + 3_600_000).toISOString();
    const res = await markAway(id, { user_id: ana.id, starts_at: threeDaysAgo, ends_at: later }, ana.token);
    expect(res.status).toBe(400);
    const { error } = await bodyOf(res);
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual([
      { path: 'starts_at', message: expect.stringContaining('only an admin records a past absence') },
    ]);
    expect(await stored(id)).toHaveLength(0);
    // A form filled in a minute ago still means "from now".
    const aMinuteAgo = new Date(now - 60_000).toISOString();
    const justNow = await markAway(id, { user_id: ana.id, starts_at: aMinuteAgo, ends_at: later }, ana.token);
    expect(justNow.status).toBe(201);
    expect((await markAway(id, { user_id: ben.id, starts_at: threeDaysAgo, ends_at: later })).status).toBe(
      201,
    );
  });

  it('marking someone away and an override putting them on call, at once: exactly one is stored', async () => {
    for (let round = 0; round < 3; round += 1) {
      const id = await schedule();
      const range = { starts_at: t(10 + round), ends_at: t(11 + round) };
      const [away, override] = await Promise.all([
        markAway(id, { user_id: ana.id, ...range }),
        addOverride(id, { user_id: ana.id, ...range }),
      ]);
      expect([away.status, override.status].sort()).toEqual([201, 409]);
      const loser = away.status === 409 ? away : override;
      expect((await bodyOf(loser)).error.code).toBe('unavailability_conflict');
      const overrides = await runtime.sql`select id from schedule_overrides where schedule_id = ${id}`;
      expect((await stored(id)).length + overrides.length).toBe(1);
    }
  });
});

describe('escalation', () => {
  it('a schedule tier resolves to the person covering', async () => {
    const id = await schedule();
    await markAway(id, {
      user_id: ana.id,
      starts_at: t(2),
      ends_at: t(3),
    });
    const tier = {
      position: 0,
      target_type: 'schedule' as const,
      schedule_id: id,
      timeout_seconds: 300,
      users: [],
    };
    // Ana's turn from 09:00 on the 6th: Ben covers until midnight, then Ana is back.
    expect(await resolveTargets(runtime.sql, tier, new Date(t(2, 12)))).toEqual([
      { id: ben.id, name: 'Ben Brandt', slack_user_id: 'U0BEN' },
    ]);
    expect(await resolveTargets(runtime.sql, tier, new Date(t(3, 1)))).toEqual([
      { id: ana.id, name: 'Ana Alves', slack_user_id: null },
    ]);
  });

  it('an incident opened now pages the person covering for whoever is unavailable', async () => {
    // Ana's turn started an hour ago; she is away from then until an hour from now.
    const now = Date.now();
    const hourAgo = new Date(Math.floor((now - 3_600_000) / 1000) * 1000).toISOString();
    const id = await schedule([ana.id, ben.id], hourAgo);
    await markAway(id, {
      user_id: ana.id,
      starts_at: hourAgo,
      ends_at: new Date(now + 3_600_000).toISOString(),
    });
    const policy = await bodyOf(
      await api('POST', '/api/v1/escalation-policies', {
        token: admin.token,
        body: {
          name: `Unavailable ${counter}`,
          tiers: [{ target_type: 'schedule', schedule_id: id, timeout_seconds: 300 }],
        },
      }),
    );
    await api('PATCH', '/api/v1/settings', {
      token: admin.token,
      body: { default_escalation_policy_id: policy.id },
    });
    const incident = await bodyOf(
      await api('POST', '/api/v1/incidents', {
        token: member.token,
        body: { title: 'Checkout down', severity: 'critical' },
      }),
    );
    await runDueEscalations(runtime.ctx);
    const { entries } = await bodyOf(
      await api('GET', `/api/v1/incidents/${incident.id}/timeline`, { token: viewer.token }),
    );
    const paged = entries.filter((e: { type: string }) => e.type === 'escalation_triggered');
    expect(paged).toHaveLength(1);
    expect(paged[0].data.targets).toEqual([expect.objectContaining({ id: ben.id, name: 'Ben Brandt' })]);
  });
});
