import postgres from 'postgres';
import type { Benchmark } from '../lib/types';

const INCIDENTS = 100_000;
const PEOPLE = 20;
const WARM_UP = 5;
/** Enough samples that the p99 is not just the slowest of a handful. */
const REQUESTS = 200;
/** The longest window, measured for the record (no target): a year is read rarely. */
const YEAR_REQUESTS = 20;
const DAY_MS = 86_400_000;

/**
 * `GET /api/v1/analytics` over the last 90 days of a year holding 100 000 incidents (about 25 000 of
 * them in the window), each with several alerts and pages through schedules in two time zones: the
 * request the analytics page makes, plain and grouped by a label, and a whole year once for the record.
 * Seeded set-based straight into the tables, then read through the HTTP API, warm, one request at a
 * time, so each latency is one request's own.
 */
export const analytics: Benchmark = {
  name: 'analytics',
  async run(env) {
    await seed(env.databaseUrl);
    const now = Date.now();
    const window = (days: number) =>
      `${env.url}/api/v1/analytics?from=${encodeURIComponent(new Date(now - days * DAY_MS).toISOString())}` +
      `&to=${encodeURIComponent(new Date(now).toISOString())}`;
    const url = window(90);
    const plain = await measure(url, env.adminToken, REQUESTS);
    const grouped = await measure(`${url}&group_by=team`, env.adminToken, REQUESTS);
    const year = await measure(`${window(366)}&group_by=team`, env.adminToken, YEAR_REQUESTS);
    const target = { op: '<=', value: 300 } as const;
    return [
      { name: 'analytics 90 days of 100k incidents, p50', value: plain.p50, unit: 'ms' },
      { name: 'analytics 90 days of 100k incidents, p99', value: plain.p99, unit: 'ms', target },
      { name: 'analytics 90 days, group_by=team, p50', value: grouped.p50, unit: 'ms' },
      { name: 'analytics 90 days, group_by=team, p99', value: grouped.p99, unit: 'ms', target },
      { name: 'analytics 366 days, group_by=team, p50 (for the record)', value: year.p50, unit: 'ms' },
      { name: 'analytics 366 days, group_by=team, slowest (for the record)', value: year.p99, unit: 'ms' },
    ];
  },
};

async function measure(url: string, token: string, requests: number): Promise<{ p50: number; p99: number }> {
  const timings: number[] = [];
  for (let i = 0; i < WARM_UP + requests; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { incidents?: { total: number } };
    if (!res.ok) throw new Error(`analytics answered ${res.status}: ${JSON.stringify(body)}`);
    if (i >= WARM_UP) timings.push(performance.now() - started);
    if (i === 0 && (body.incidents?.total ?? 0) < INCIDENTS / 5) {
      throw new Error(`the 90-day window holds only ${body.incidents?.total} incidents`);
    }
  }
  timings.sort((a, b) => a - b);
  const at = (q: number) => timings[Math.min(timings.length - 1, Math.ceil(q * timings.length) - 1)]!;
  return { p50: Math.round(at(0.5)), p99: Math.round(at(0.99)) };
}

/**
 * A year of incidents, one every ~5 minutes: most acknowledged and resolved, each paged through a
 * Berlin schedule's tier (and a third escalated to a New York one) to one to three people in many
 * combinations, three alerts on average with thousands of titles, and a stream of suppressed alerts
 * beside them. Steps older than 200 days have no recorded time zone, as steps fired before the column
 * existed, so the fallback to the policy's tier is measured too.
 */
export async function seed(databaseUrl: string): Promise<void> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const people = await sql<{ id: string; name: string }[]>`
      insert into users (email, name, role)
      select 'analytics-' || g || '@example.test', 'On-call ' || g, 'member' from generate_series(1, ${PEOPLE}) g
      returning id, name`;
    const [berlin, newYork] = await sql<{ id: string }[]>`
      insert into schedules (name, timezone)
      values ('Analytics Berlin', 'Europe/Berlin'), ('Analytics New York', 'America/New_York')
      returning id`;
    const [policy] = await sql<{ id: string }[]>`
      insert into escalation_policies (name) values ('Analytics bench') returning id`;
    await sql`
      insert into escalation_tiers (policy_id, position, target_type, schedule_id, timeout_seconds)
      values (${policy!.id}, 0, 'schedule', ${berlin!.id}, 300), (${policy!.id}, 1, 'schedule', ${newYork!.id}, 300)`;
    const targets = people.map((p) => ({ id: p.id, name: p.name, slack_user_id: null }));
    await sql`
      insert into incidents (title, severity, status, source, escalation_policy_id, created_at,
                             acknowledged_at, resolved_at)
      select 'Analytics incident ' || g,
             (array['critical','high','medium','low'])[1 + g % 4],
             case when g % 10 < 8 then 'resolved' when g % 10 = 8 then 'acknowledged' else 'triggered' end,
             (array['alert','alert','alert','manual','chat'])[1 + g % 5],
             ${policy!.id},
             t,
             case when g % 10 < 9 and g % 7 <> 0 then t + (30 + g % 900) * interval '1 second' end,
             case when g % 10 < 8 then t + (300 + g % 7200) * interval '1 second' end
      from generate_series(1, ${INCIDENTS}) g,
           lateral (select now() - (${INCIDENTS} - g) * interval '315 seconds' as t) at`;
    await sql`
      insert into incident_escalations (incident_id, policy_id, next_due_at, stopped_reason)
      select id, escalation_policy_id, null, 'acknowledged' from incidents where escalation_policy_id = ${policy!.id}`;
    // One to three people per step, in combinations that vary from incident to incident.
    await sql`
      insert into escalation_steps (incident_id, round, tier, due_at, fired_at, targets, time_zone)
      select i.id, 0, tier, i.created_at + tier * interval '5 minutes', i.created_at + tier * interval '5 minutes',
             jsonb_path_query_array(
               jsonb_build_array(
                 p -> ((i.number + tier) % ${PEOPLE}),
                 case when i.number % 4 = 0 then p -> ((i.number * 7 + tier) % ${PEOPLE}) end,
                 case when i.number % 9 = 0 then p -> ((i.number * 13 + 5) % ${PEOPLE}) end),
               '$[*] ? (@ != null)'),
             case when i.created_at > now() - interval '200 days'
                  then (array['Europe/Berlin', 'America/New_York'])[1 + tier] end
      from incidents i, generate_series(0, 1) tier, (select ${sql.json(targets)}::jsonb as p) people
      where i.escalation_policy_id = ${policy!.id} and (tier = 0 or i.number % 3 = 0)`;
    // One to five alerts per alert-opened incident (three on average), titles from a few thousand.
    await sql`
      insert into alerts (integration, dedup_key, title, status, started_at, ended_at, incident_id, labels)
      select 'generic', 'bench-' || i.number || '-' || n,
             (array['Disk full on', 'CPU high on', 'Latency over SLO on', '5xx rate on', 'Replica lag on',
                    'Memory pressure on', 'Queue backlog on', 'Certificate expiring on'])[1 + (i.number + n) % 8]
               || ' host-' || (i.number * 7 + n) % 1500,
             case when (i.number + n) % 4 = 0 then 'resolved' else 'firing' end,
             i.created_at - interval '1 minute' + n * interval '40 seconds',
             case when (i.number + n) % 4 = 0 then i.created_at + (n + 1) * interval '2 minutes' end,
             i.id,
             jsonb_build_object('team', 'team-' || (i.number % 12), 'host', 'host-' || (i.number * 7 + n) % 1500)
      from incidents i, lateral generate_series(0, i.number % 5) n
      where i.escalation_policy_id = ${policy!.id} and i.source = 'alert'`;
    await sql`
      update incidents i set opened_by_alert_id = a.id
      from alerts a
      where a.integration = 'generic' and a.dedup_key = 'bench-' || i.number || '-0' and i.source = 'alert'`;
    await sql`
      insert into alerts (integration, dedup_key, title, status, started_at, ended_at, suppressed)
      select 'generic', 'bench-suppressed-' || g, 'Analytics flapping ' || (g % 500), 'resolved',
             now() - g * interval '630 seconds', now() - g * interval '630 seconds' + interval '1 minute', true
      from generate_series(1, ${INCIDENTS / 2}) g`;
    await sql`analyze`;
  } finally {
    await sql.end();
  }
}
