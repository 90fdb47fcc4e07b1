// Analytics (docs/analytics.md): one week of seeded incidents, pages and alerts with answers worked out
// by hand — percentiles, counts by severity, source and label, out-of-hours pages through schedules in
// two time zones (a weekend included), the noisiest alerts, a daily series with quiet days — then what
// the recorded facts keep right (the alert that opened an incident, the time zone a page happened in,
// summer time), the input errors, who may read it, the CSV, and how many requests read at once.
import { settings } from '@firebreak/db';
import { startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import type { AlertInput, AnalyticsDay } from '@firebreak/schema';
import {
  createIncident,
  escalateNow,
  recordAlerts,
  runDueEscalations,
  type ServiceContext,
  setDefaultEscalationPolicy,
} from '@firebreak/services';
import { bodyOf, type TestClient, waitFor } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';
import { startOnCallTestApp } from './oncall-test-app';
import { dailyCsv } from './routes/analytics';

let runtime: TestRuntime;
let api: TestClient;
let admin: TestUser;
let viewer: TestUser;
let ana: TestUser;
let ben: TestUser;
/** The seeded week's policy: Berlin's schedule is tier 0, New York's tier 1, Ana by name tier 2. */
let policy: string;

// Monday 2 November 2026 to Monday 9 November (exclusive): after the US and EU clocks went back, so
// Berlin is UTC+1 and New York UTC−5 all week.
const WEEK = 'from=2026-11-02&to=2026-11-09';

beforeAll(async () => {
  ({ runtime, api, admin, viewer, ana, ben } = await startOnCallTestApp());
  await seedWeek();
});
afterAll(() => runtime.cleanup());

async function created(path: string, body: unknown): Promise<string> {
  const res = await api('POST', path, { token: admin.token, body });
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return (await bodyOf(res)).id as string;
}

async function seedWeek() {
  const sql = runtime.sql;
  const berlin = await created('/api/v1/schedules', { name: 'Berlin', timezone: 'Europe/Berlin' });
  const newYork = await created('/api/v1/schedules', { name: 'New York', timezone: 'America/New_York' });
  policy = await created('/api/v1/escalation-policies', {
    name: 'Analytics policy',
    tiers: [
      { target_type: 'schedule', schedule_id: berlin },
      { target_type: 'schedule', schedule_id: newYork },
      { target_type: 'users', user_ids: [ana.id] },
    ],
  });
  // [key, created_at, seconds to acknowledge, seconds to resolve, severity, source]
  const incidents: Array<[string, string, number | null, number | null, string, string]> = [
    ['i1', '2026-11-02T10:00:00Z', 60, 600, 'critical', 'alert'],
    ['i2', '2026-11-02T12:00:00Z', 120, 1200, 'high', 'alert'],
    ['i3', '2026-11-03T09:00:00Z', 300, 3600, 'high', 'manual'],
    ['i4', '2026-11-03T15:00:00Z', 600, null, 'low', 'chat'],
    ['i5', '2026-11-05T08:00:00Z', null, 1800, 'medium', 'alert'],
    // Outside the window: a second before it, and at its (exclusive) end.
    ['before', '2026-11-01T23:59:59Z', 10, 20, 'critical', 'alert'],
    ['after', '2026-11-09T00:00:00Z', 10, 20, 'critical', 'alert'],
  ];
  const ids: Record<string, string> = {};
  for (const [key, at, tta, ttr, severity, source] of incidents) {
    const start = new Date(at);
    const plus = (s: number | null) => (s === null ? null : new Date(start.getTime() + s * 1000));
    const status = ttr !== null ? 'resolved' : tta !== null ? 'acknowledged' : 'triggered';
    const [row] = await sql<{ id: string }[]>`
      insert into incidents (title, severity, status, source, escalation_policy_id, created_at,
                             acknowledged_at, resolved_at)
      values (${`Incident ${key}`}, ${severity}, ${status}, ${source}, ${policy}, ${start}, ${plus(tta)},
              ${plus(ttr)})
      returning id`;
    ids[key] = row!.id;
    await sql`insert into incident_escalations (incident_id, policy_id) values (${row!.id}, ${policy})`;
  }

  const person = (u: TestUser, name: string) => ({ id: u.id, name, slack_user_id: null });
  const anaT = person(ana, 'Ana Alves');
  const benT = person(ben, 'Ben Brandt');
  // [incident, tier (0-based), fired_at, targets]: Berlin is tier 0, New York tier 1, named people tier 2.
  const steps: Array<[string, number, string, unknown[]]> = [
    ['i1', 0, '2026-11-02T10:00:00Z', [anaT]], // Berlin Mon 11:00: office hours
    ['i1', 1, '2026-11-02T12:30:00Z', [benT]], // New York Mon 07:30: out of hours
    ['i2', 0, '2026-11-02T17:30:00Z', [anaT]], // Berlin Mon 18:30: out of hours
    ['i2', 1, '2026-11-02T22:30:00Z', [benT]], // New York Mon 17:30: office hours (UTC would say night)
    ['i3', 2, '2026-11-03T08:30:00Z', [anaT, { id: null, name: 'Ghost', slack_user_id: null }]], // UTC 08:30: out
    ['i4', 0, '2026-11-03T08:00:00Z', [benT]], // Berlin Tue 09:00 sharp: office hours
    ['i3', 0, '2026-11-07T12:00:00Z', [anaT]], // Berlin Saturday 13:00: out of hours
    ['i4', 1, '2026-11-09T01:00:00Z', [benT]], // after the window
  ];
  for (const [incident, tier, at, targets] of steps) {
    await sql`
      insert into escalation_steps (incident_id, round, tier, due_at, fired_at, targets)
      values (${ids[incident]!}, 0, ${tier}, ${at}, ${at}, ${sql.json(targets as never)})`;
  }

  const [window] = await sql<{ id: string }[]>`
    insert into maintenance_windows (name, starts_at, ends_at)
    values ('Patching', '2026-11-05T09:00:00Z', '2030-01-01T00:00:00Z') returning id`;
  // [integration, title, dedup key, incident, started, status, ended, suppressed, held, labels]
  const alerts: Array<
    [string, string, string | null, string | null, string, string, string | null, boolean, boolean, object]
  > = [
    [
      'generic',
      'Disk full',
      'disk-1',
      'i1',
      '2026-11-02T09:59:00Z',
      'firing',
      null,
      false,
      false,
      { team: 'db' },
    ],
    // Resolved by its sender 30 s before anyone acknowledged i1: auto-resolved.
    [
      'generic',
      'Disk full',
      'disk-2',
      'i1',
      '2026-11-02T10:05:00Z',
      'resolved',
      '2026-11-02T10:00:30Z',
      false,
      false,
      { team: 'web' },
    ],
    // Suppressed by a rule and resolved on its own: no incident, so not auto-resolved.
    [
      'generic',
      'Disk full',
      'disk-3',
      null,
      '2026-11-03T01:00:00Z',
      'resolved',
      '2026-11-03T02:00:00Z',
      true,
      false,
      {},
    ],
    // Resolved after i2 was acknowledged: a person was on it, not auto-resolved.
    [
      'generic',
      'CPU high',
      'cpu-1',
      'i2',
      '2026-11-02T11:59:00Z',
      'resolved',
      '2026-11-02T12:30:00Z',
      false,
      false,
      { team: 'web' },
    ],
    [
      'alertmanager',
      'CPU high',
      'cpu-1',
      'i5',
      '2026-11-05T07:59:00Z',
      'firing',
      null,
      false,
      false,
      { zone: 'a' },
    ],
    ['generic', 'Heartbeat missed', null, null, '2026-11-05T10:00:00Z', 'firing', null, false, true, {}],
    ['generic', 'Disk full', 'disk-9', null, '2026-11-09T00:00:00Z', 'firing', null, false, false, {}],
  ];
  for (const [
    integration,
    title,
    key,
    incident,
    started,
    status,
    ended,
    suppressed,
    held,
    labels,
  ] of alerts) {
    await sql`
      insert into alerts (integration, dedup_key, title, status, started_at, ended_at, incident_id,
                          suppressed, maintenance_window_id, labels)
      values (${integration}, ${key}, ${title}, ${status}, ${started}, ${ended},
              ${incident ? ids[incident]! : null}, ${suppressed}, ${held ? window!.id : null},
              ${sql.json(labels as never)})`;
  }
  // Intake records the alert that opened an incident; here each incident's earliest alert opened it.
  await sql`
    update incidents i set opened_by_alert_id = (
      select a.id from alerts a where a.incident_id = i.id order by a.started_at limit 1)`;
}

async function analytics(query: string, token = viewer.token) {
  const res = await api('GET', `/api/v1/analytics?${query}`, { token });
  return { status: res.status, body: await bodyOf(res) };
}

describe('GET /api/v1/analytics over a seeded week', () => {
  it('answers MTTA and MTTR percentiles and the incident counts of the window only', async () => {
    const { status, body } = await analytics(WEEK);
    expect(status).toBe(200);
    expect(body.from).toBe('2026-11-02T00:00:00.000Z');
    expect(body.to).toBe('2026-11-09T00:00:00.000Z');
    expect(body.group_by).toBeNull();
    // Acknowledged in 60, 120, 300, 600 s; resolved in 600, 1200, 1800, 3600 s (linear interpolation).
    expect(body.mtta_seconds).toEqual({ p50: 210, p90: 510, count: 4 });
    expect(body.mttr_seconds).toEqual({ p50: 1500, p90: 3060, count: 4 });
    expect(body.incidents).toEqual({
      total: 5,
      by_severity: [
        { severity: 'critical', count: 1 },
        { severity: 'high', count: 2 },
        { severity: 'medium', count: 1 },
        { severity: 'low', count: 1 },
      ],
      by_source: [
        { source: 'manual', count: 1 },
        { source: 'alert', count: 3 },
        { source: 'chat', count: 1 },
      ],
      by_label: [],
    });
  });

  it('counts incidents by the label of the alert that opened them, null without one', async () => {
    const { body } = await analytics(`${WEEK}&group_by=team`);
    expect(body.group_by).toBe('team');
    expect(body.incidents.by_label).toEqual([
      { value: null, count: 3 },
      { value: 'db', count: 1 },
      { value: 'web', count: 1 },
    ]);
  });

  it('counts pages out of hours in the time zone of the schedule each person was paged through', async () => {
    const { body } = await analytics(WEEK);
    expect(body.pages).toEqual({
      total: 8,
      out_of_hours: 5,
      by_person: [
        { user_id: ana.id, name: 'Ana Alves', pages: 4, out_of_hours: 3 },
        { user_id: ben.id, name: 'Ben Brandt', pages: 3, out_of_hours: 1 },
        { user_id: null, name: 'Ghost', pages: 1, out_of_hours: 1 },
      ],
    });
  });

  it('lists the noisiest alert titles with their incidents, suppressed and auto-resolved alerts', async () => {
    const { body } = await analytics(WEEK);
    // Auto-resolved counts among alerts that reached an incident: disk-3, suppressed and resolved on
    // its own, had no incident to beat and is not one.
    expect(body.noisiest_alerts).toEqual([
      { title: 'Disk full', dedup_key: null, alerts: 3, incidents: 1, suppressed: 1, auto_resolved: 1 },
      { title: 'CPU high', dedup_key: 'cpu-1', alerts: 2, incidents: 2, suppressed: 0, auto_resolved: 0 },
      {
        title: 'Heartbeat missed',
        dedup_key: null,
        alerts: 1,
        incidents: 0,
        suppressed: 1,
        auto_resolved: 0,
      },
    ]);
  });

  it('answers one row per UTC day, quiet days included', async () => {
    const { body } = await analytics(WEEK);
    const quiet = (date: string) => ({
      date,
      incidents: 0,
      acknowledged: 0,
      resolved: 0,
      mtta_p50_seconds: null,
      mttr_p50_seconds: null,
      pages: 0,
      out_of_hours_pages: 0,
      alerts: 0,
    });
    expect(body.daily).toEqual([
      {
        date: '2026-11-02',
        incidents: 2,
        acknowledged: 2,
        resolved: 2,
        mtta_p50_seconds: 90,
        mttr_p50_seconds: 900,
        pages: 4,
        out_of_hours_pages: 2,
        alerts: 3,
      },
      {
        date: '2026-11-03',
        incidents: 2,
        acknowledged: 2,
        resolved: 1,
        mtta_p50_seconds: 450,
        mttr_p50_seconds: 3600,
        pages: 3,
        out_of_hours_pages: 2,
        alerts: 1,
      },
      quiet('2026-11-04'),
      { ...quiet('2026-11-05'), incidents: 1, resolved: 1, mttr_p50_seconds: 1800, alerts: 2 },
      quiet('2026-11-06'),
      { ...quiet('2026-11-07'), pages: 1, out_of_hours_pages: 1 },
      quiet('2026-11-08'),
    ]);
  });

  it('takes times with zones: a window of one hour on Monday holds i1 alone', async () => {
    const { body } = await analytics(
      `from=${encodeURIComponent('2026-11-02T10:30:00+01:00')}&to=2026-11-02T10:30:00Z`,
    );
    expect(body.from).toBe('2026-11-02T09:30:00.000Z');
    expect(body.incidents.total).toBe(1);
    expect(body.daily.map((d: { date: string }) => d.date)).toEqual(['2026-11-02']);
  });

  it('defaults to the last 30 days', async () => {
    const before = Date.now();
    const { status, body } = await analytics('');
    expect(status).toBe(200);
    const to = Date.parse(body.to);
    expect(to).toBeGreaterThanOrEqual(before - 1000);
    expect(to - Date.parse(body.from)).toBe(30 * 86_400_000);
    expect(body.daily.length).toBe(31);
  });
});

/** The services' context with its clock at `iso`: intake and escalation at a chosen instant. */
const clockAt = (iso: string): ServiceContext => ({ ...runtime.ctx, now: () => new Date(iso) });

function firing(externalId: string, labels: Record<string, string>, startedAt: string): AlertInput {
  return {
    title: `Alert ${externalId}`,
    description: null,
    severity: 'critical',
    status: 'firing',
    externalId,
    fingerprint: null,
    source: null,
    labels,
    annotations: {},
    startedAt: new Date(startedAt),
    endedAt: null,
  };
}

async function intake(iso: string, alert: AlertInput): Promise<string | null> {
  const result = await recordAlerts(clockAt(iso), 'generic', [alert], new Date(iso));
  return result.alerts[0]!.incident_id;
}

describe('the alert that opened an incident', () => {
  it('keeps the incident under its label when others join earlier-started and it fires again', async () => {
    await created('/api/v1/routing-rules', {
      name: 'Checkout by service',
      priority: 1,
      match_criteria: { labels: { service: 'checkout' } },
      actions: { create_incident: true, group_by: ['service'] },
    });
    // Monday 19 October (before the seeded maintenance window): A opens the incident; B joins it with an earlier sender time; A resolves
    // and fires again, moving its own start after B's. Only the opening says A opened it.
    const a = (startedAt: string) =>
      firing('checkout-a', { service: 'checkout', team: 'payments' }, startedAt);
    const incident = await intake('2026-10-19T10:00:00Z', a('2026-10-19T10:00:00Z'));
    expect(incident).not.toBeNull();
    const b = firing('checkout-b', { service: 'checkout', team: 'storefront' }, '2026-10-19T09:50:00Z');
    expect(await intake('2026-10-19T10:05:00Z', b)).toBe(incident);
    const resolved = { ...a('2026-10-19T10:00:00Z'), status: 'resolved' as const };
    await intake('2026-10-19T10:10:00Z', { ...resolved, endedAt: new Date('2026-10-19T10:10:00Z') });
    expect(await intake('2026-10-19T10:20:00Z', a('2026-10-19T10:20:00Z'))).toBe(incident);

    const { body } = await analytics('from=2026-10-19&to=2026-10-20&group_by=team');
    expect(body.incidents.total).toBe(1);
    expect(body.incidents.by_label).toEqual([{ value: 'payments', count: 1 }]);
  });

  it('counts a storm incident under the alert that started the storm', async () => {
    await created('/api/v1/routing-rules', {
      name: 'Storm drill',
      priority: 2,
      match_criteria: { labels: { drill: 'storm' } },
      actions: { create_incident: true },
    });
    await settings.putSetting(runtime.sql, 'storm_threshold_incidents', 1);
    try {
      // Tuesday 20 October: the first alert opens its own incident, the second starts the storm (more
      // than one incident within the window), the third joins the storm with an earlier sender time.
      const alpha = firing('storm-1', { drill: 'storm', team: 'alpha' }, '2026-10-20T10:00:00Z');
      const beta = firing('storm-2', { drill: 'storm', team: 'beta' }, '2026-10-20T10:01:00Z');
      const gamma = firing('storm-3', { drill: 'storm', team: 'gamma' }, '2026-10-20T09:00:00Z');
      const first = await intake('2026-10-20T10:00:00Z', alpha);
      const storm = await intake('2026-10-20T10:01:00Z', beta);
      expect(storm).not.toBe(first);
      expect(await intake('2026-10-20T10:02:00Z', gamma)).toBe(storm);
      const [row] = await runtime.sql<{ storm_started_at: Date | null }[]>`
        select storm_started_at from incidents where id = ${storm!}`;
      expect(row!.storm_started_at).not.toBeNull();

      const { body } = await analytics('from=2026-10-20&to=2026-10-21&group_by=team');
      expect(body.incidents.by_label).toEqual([
        { value: 'alpha', count: 1 },
        { value: 'beta', count: 1 },
      ]);
    } finally {
      await settings.putSetting(runtime.sql, 'storm_threshold_incidents', 10);
    }
  });
});

describe('the time zone a page happened in', () => {
  const onCallAna = () => [
    {
      name: 'Ana always',
      rotation_start: '2026-11-01T00:00:00Z',
      shift_duration_seconds: 86_400,
      rotation_type: 'daily',
      participants: [{ user_id: ana.id }],
    },
  ];

  it("stays the one the step fired in when the policy's tier changes afterwards", async () => {
    const berlin = await created('/api/v1/schedules', {
      name: 'Berlin desk',
      timezone: 'Europe/Berlin',
      layers: onCallAna(),
    });
    const newYork = await created('/api/v1/schedules', {
      name: 'New York desk',
      timezone: 'America/New_York',
      layers: onCallAna(),
    });
    const tier = (schedule: string) => ({ target_type: 'schedule', schedule_id: schedule });
    const desk = await created('/api/v1/escalation-policies', {
      name: 'Desk policy',
      tiers: [tier(berlin), tier(berlin)],
    });
    await setDefaultEscalationPolicy(runtime.ctx, desk);
    // Monday 16 November, 08:30 UTC: 09:30 in Berlin (office hours), 03:30 in New York (night). The
    // timer pages the first tier, a person escalates to the second a minute later: both in Berlin.
    const actor = { type: 'user' as const, name: 'tester' };
    const incident = await createIncident(clockAt('2026-11-16T08:30:00Z'), actor, {
      title: 'Paged in Berlin',
      severity: 'high',
    });
    expect(await runDueEscalations(clockAt('2026-11-16T08:30:00Z'))).toBe(1);
    await escalateNow(clockAt('2026-11-16T08:31:00Z'), actor, { id: incident.id }, { chat: false });
    const res = await api('PATCH', `/api/v1/escalation-policies/${desk}`, {
      token: admin.token,
      body: { tiers: [tier(newYork), tier(newYork)] },
    });
    expect(res.status).toBe(200);

    const { body } = await analytics('from=2026-11-16&to=2026-11-17');
    expect(body.pages).toEqual({
      total: 2,
      out_of_hours: 0,
      by_person: [{ user_id: ana.id, name: 'Ana Alves', pages: 2, out_of_hours: 0 }],
    });
  });
});

describe('a summer day, a person listed twice, an alert resolved without an end', () => {
  it('judges 07:30 UTC in July as 09:30 Berlin summer time, counts the person once', async () => {
    const sql = runtime.sql;
    // Monday 6 July 2026: Berlin is UTC+2.
    const [incident] = await sql<{ id: string }[]>`
      insert into incidents (title, severity, status, source, escalation_policy_id, created_at,
                             acknowledged_at)
      values ('Summer', 'high', 'acknowledged', 'alert', ${policy}, '2026-07-06T07:25:00Z',
              '2026-07-06T07:40:00Z')
      returning id`;
    const id = incident!.id;
    await sql`insert into incident_escalations (incident_id, policy_id) values (${id}, ${policy})`;
    // A tier naming Ana twice pages her once.
    const anaT = { id: ana.id, name: 'Ana Alves', slack_user_id: null };
    await sql`
      insert into escalation_steps (incident_id, round, tier, due_at, fired_at, targets, time_zone)
      values (${id}, 0, 0, '2026-07-06T07:30:00Z', '2026-07-06T07:30:00Z', ${sql.json([anaT, anaT])},
              'Europe/Berlin')`;
    // Marked resolved by its sender without an end time (updated before the acknowledgement): without
    // ended_at nobody can say it resolved before anyone acted, so it is not auto-resolved.
    await sql`
      insert into alerts (integration, dedup_key, title, status, started_at, ended_at, updated_at,
                          incident_id)
      values ('generic', 'flap-1', 'Flapping disk', 'resolved', '2026-07-06T07:24:00Z', null,
              '2026-07-06T07:26:00Z', ${id})`;

    const { body } = await analytics('from=2026-07-06&to=2026-07-07');
    expect(body.pages).toEqual({
      total: 1,
      out_of_hours: 0,
      by_person: [{ user_id: ana.id, name: 'Ana Alves', pages: 1, out_of_hours: 0 }],
    });
    expect(body.daily[0]).toMatchObject({ date: '2026-07-06', pages: 1, out_of_hours_pages: 0 });
    expect(body.noisiest_alerts).toEqual([
      {
        title: 'Flapping disk',
        dedup_key: 'flap-1',
        alerts: 1,
        incidents: 1,
        suppressed: 0,
        auto_resolved: 0,
      },
    ]);
  });
});

describe("a schedule's time zone", () => {
  // Node's zone data still has this old alias; PostgreSQL's (the system's) no longer does.
  const zone = 'US/Pacific-New';

  it('must be one PostgreSQL knows: 400 at timezone, nothing saved', async () => {
    expect(() => new Intl.DateTimeFormat('en-US', { timeZone: zone })).not.toThrow();
    const [known] = await runtime.sql<{ n: number }[]>`
      select count(*)::int as n from pg_timezone_names where lower(name) = lower(${zone})`;
    expect(known!.n).toBe(0);

    const create = await api('POST', '/api/v1/schedules', {
      token: admin.token,
      body: { name: 'Old Pacific', timezone: zone },
    });
    expect(create.status).toBe(400);
    const error = (await bodyOf(create)).error;
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual([{ path: 'timezone', message: expect.stringContaining('does not know') }]);
    const [saved] = await runtime.sql<{ n: number }[]>`
      select count(*)::int as n from schedules where name = 'Old Pacific'`;
    expect(saved!.n).toBe(0);

    const id = await created('/api/v1/schedules', { name: 'Pacific', timezone: 'America/Los_Angeles' });
    const update = await api('PATCH', `/api/v1/schedules/${id}`, {
      token: admin.token,
      body: { timezone: zone },
    });
    expect(update.status).toBe(400);
    expect((await bodyOf(update)).error.details[0].path).toBe('timezone');
    const [kept] = await runtime.sql<{ timezone: string }[]>`select timezone from schedules where id = ${id}`;
    expect(kept!.timezone).toBe('America/Los_Angeles');
  });
});

describe('bad input and access', () => {
  it.each([
    ['from=2026-11-09&to=2026-11-02', 'to', 'to must be after from'],
    ['from=2026-11-02&to=2026-11-02', 'to', 'to must be after from'],
    ['from=2025-01-01&to=2026-01-03', 'to', 'the window is at most 366 days'],
    ['from=yesterday', 'from', 'must be an ISO 8601 date'],
    ['from=2026-11-02T00:00:00', 'from', 'must be an ISO 8601 date'],
    ['group_by=', 'group_by', 'a label name is 1 to 256 characters'],
    [`group_by=${'x'.repeat(257)}`, 'group_by', 'a label name is 1 to 256 characters'],
    ['group_by=%01team', 'group_by', 'a label name has no control characters'],
    // Defaults make the window: `to` now, so a `from` in the future leaves nothing.
    ['from=2999-01-01', 'to', 'to must be after from'],
  ])('%s answers 400 at %s', async (query, path, message) => {
    const { status, body } = await analytics(query);
    expect(status).toBe(400);
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.details).toEqual([{ path, message: expect.stringContaining(message) }]);
  });

  it('takes any label name as data: a hostile one is a label nobody has', async () => {
    const { status, body } = await analytics(`${WEEK}&group_by=${encodeURIComponent("team'--")}`);
    expect(status).toBe(200);
    expect(body.group_by).toBe("team'--");
    expect(body.incidents.by_label).toEqual([{ value: null, count: 5 }]);
  });

  it('needs a credential; a viewer may read', async () => {
    expect((await api('GET', '/api/v1/analytics')).status).toBe(401);
    expect((await api('GET', '/api/v1/analytics.csv')).status).toBe(401);
    expect((await analytics(WEEK, viewer.token)).status).toBe(200);
  });
});

describe('GET /api/v1/analytics.csv', () => {
  it('is the daily series: a header row and one row per day, as an attachment', async () => {
    const res = await api('GET', `/api/v1/analytics.csv?${WEEK}`, { token: viewer.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="firebreak-analytics-2026-11-02-2026-11-08.csv"',
    );
    expect((await res.text()).split('\n')).toEqual([
      'date,incidents,acknowledged,resolved,mtta_p50_seconds,mttr_p50_seconds,pages,out_of_hours_pages,alerts',
      '2026-11-02,2,2,2,90,900,4,2,3',
      '2026-11-03,2,2,1,450,3600,3,2,1',
      '2026-11-04,0,0,0,,,0,0,0',
      '2026-11-05,1,0,1,,1800,0,0,2',
      '2026-11-06,0,0,0,,,0,0,0',
      '2026-11-07,0,0,0,,,1,1,0',
      '2026-11-08,0,0,0,,,0,0,0',
      '',
    ]);
  });

  it('escapes a cell a spreadsheet would run as a formula', () => {
    const day = { date: '=1+1', incidents: 1 } as AnalyticsDay;
    expect(dailyCsv({ daily: [day] }).split('\n')[1]).toBe("'=1+1,1,,,,,,,");
  });

  it('refuses a bad window the same way', async () => {
    const res = await api('GET', '/api/v1/analytics.csv?from=2026-11-09&to=2026-11-02', {
      token: viewer.token,
    });
    expect(res.status).toBe(400);
    expect((await bodyOf(res)).error.code).toBe('validation_failed');
  });
});

describe('requests at once', () => {
  it('reads two at a time, three statements each on its own connection, and stops a read that takes over 10 s', async () => {
    // A pool wide enough for two requests' three statements each, so only the gate holds the third back.
    const wide = await startTestApp(createApp, {
      env: { DB_MAX_OPEN_CONNS: '10' },
      users: { reader: 'viewer' },
    });
    const read = async () => {
      const res = await wide.api('GET', `/api/v1/analytics?${WEEK}`, { token: wide.users.reader.token });
      return { status: res.status, body: await bodyOf(res) };
    };
    // Held in another transaction, this lock makes every analytics read wait at its first statement.
    let release = () => {};
    const released = new Promise<void>((done) => {
      release = done;
    });
    let locked = () => {};
    const lockTaken = new Promise<void>((done) => {
      locked = done;
    });
    const holder = wide.runtime.sql.begin(async (tx) => {
      await tx`lock table incidents in access exclusive mode`;
      locked();
      await released;
    });
    await lockTaken;
    try {
      const answered: Awaited<ReturnType<typeof read>>[] = [];
      const requests = [1, 2, 3].map(() => read().then((answer) => answered.push(answer)));
      // Of each request's three statements, the two that read incidents wait for the lock.
      const waiting = async () => {
        const [row] = await wide.runtime.sql<{ n: number }[]>`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`;
        return row!.n;
      };
      await waitFor(async () => (await waiting()) === 4, { what: 'two analytics reads waiting' });
      // The third waits in the process for a turn, not on a connection.
      await new Promise((done) => setTimeout(done, 500));
      expect(await waiting()).toBe(4);
      // The two that read give up after 10 s; then the lock goes, and the third reads.
      await waitFor(() => answered.length >= 2, { what: 'two answers', timeoutMs: 15_000 });
      release();
      await Promise.all(requests);
      expect(answered.map((answer) => answer.status)).toEqual([503, 503, 200]);
      for (const answer of answered.slice(0, 2)) {
        expect(answer.body.error.code).toBe('service_unavailable');
        expect(answer.body.error.message).toContain('try a shorter window');
      }
    } finally {
      release();
      await holder;
      await wide.runtime.cleanup();
    }
  }, 30_000);
});
