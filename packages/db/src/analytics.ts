import type { Queryable } from './client';

/**
 * The aggregates behind `GET /api/v1/analytics` (docs/analytics.md), each over a window `[from, to)`:
 * three statements, each one pass over its table's rows in the window, run one after another in one
 * read-only transaction (`limitAnalyticsRead` first). Days are UTC days. What each number means, and why
 * these records, is in docs/analytics.md; how it stays cheap, in docs/decisions.md#analytics-stays-fast.
 */

/** How long one analytics statement may run before PostgreSQL cancels it. */
export const ANALYTICS_STATEMENT_TIMEOUT = '10s';

/**
 * Settings for the rest of the caller's transaction: no JIT compilation (PostgreSQL's cost model JITs
 * these aggregates over a long window, which costs more than it saves on statements this size, and the
 * embedded server has no JIT to show it) and a statement timeout, so a read that goes wrong gives up
 * rather than holding a connection. One round trip; `set_config(…, true)` is `set local`.
 */
export async function limitAnalyticsRead(sql: Queryable): Promise<void> {
  await sql`
    select set_config('jit', 'off', true), set_config('statement_timeout', ${ANALYTICS_STATEMENT_TIMEOUT}, true)`;
}

/** Whether an error is PostgreSQL cancelling a statement at `statement_timeout` (SQLSTATE 57014). */
export function isStatementTimeout(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '57014';
}

export interface AnalyticsWindow {
  from: Date;
  to: Date;
}

/**
 * One group of the incidents opened in the window: `all` of them, one severity, source or label value,
 * or one UTC day (`value` is then `YYYY-MM-DD`). Times are seconds from opening; percentiles are null
 * when no incident of the group was acknowledged (resolved).
 */
export interface IncidentGroupRow {
  dimension: 'all' | 'severity' | 'source' | 'label' | 'day';
  value: string | null;
  incidents: number;
  acknowledged: number;
  resolved: number;
  tta_p50: number | null;
  tta_p90: number | null;
  ttr_p50: number | null;
  ttr_p90: number | null;
}

/**
 * The incidents opened in the window, grouped every way the view shows them, in one scan. An incident's
 * label is the label on the alert that opened it (`opened_by_alert_id`, recorded by the opening); an
 * incident opened by a person or from chat, or whose opening alert lacks the label, has none (null).
 */
export async function incidentGroups(
  sql: Queryable,
  window: AnalyticsWindow,
  groupBy: string | null,
): Promise<IncidentGroupRow[]> {
  // One primary-key lookup per incident of the window, and only when the view groups by a label.
  const label = groupBy
    ? sql`(select a.labels ->> ${groupBy} from alerts a where a.id = i.opened_by_alert_id)`
    : sql`null::text`;
  // Percentiles sort their values, so they are computed only where the view shows them: over all the
  // incidents, and the median per day. The other groups are counts.
  return sql<IncidentGroupRow[]>`
    with opened as materialized (
      select i.severity, i.source, ${label} as label,
             (i.created_at at time zone 'UTC')::date::text as day,
             extract(epoch from i.acknowledged_at - i.created_at)::float8 as tta,
             extract(epoch from i.resolved_at - i.created_at)::float8 as ttr
      from incidents i
      where i.created_at >= ${window.from} and i.created_at < ${window.to}
    )
    select 'all' as dimension, null as value,
           count(*)::int as incidents, count(tta)::int as acknowledged, count(ttr)::int as resolved,
           percentile_cont(0.5) within group (order by tta) as tta_p50,
           percentile_cont(0.9) within group (order by tta) as tta_p90,
           percentile_cont(0.5) within group (order by ttr) as ttr_p50,
           percentile_cont(0.9) within group (order by ttr) as ttr_p90
    from opened
    union all
    select 'day', day, count(*)::int, count(tta)::int, count(ttr)::int,
           percentile_cont(0.5) within group (order by tta), null,
           percentile_cont(0.5) within group (order by ttr), null
    from opened group by day
    union all
    select 'severity', severity, count(*)::int, 0, 0, null, null, null, null from opened group by severity
    union all
    select 'source', source, count(*)::int, 0, 0, null, null, null, null from opened group by source
    ${
      groupBy
        ? sql`union all
              select 'label', label, count(*)::int, 0, 0, null, null, null, null from opened group by label`
        : sql``
    }`;
}

/**
 * Pages to people in the window, counted by the wall-clock weekday and hour they happened at in the time
 * zone of the schedule the person was paged through, once per person and once per UTC day. A page is a
 * person among an escalation step's targets (`escalation_steps`, one row per fired tier); a person listed
 * twice on one step is one page. The zone is the one the step recorded when it fired (`time_zone`); a
 * step fired before steps recorded it takes the schedule its tier names in the escalation's policy now
 * (a tier of named people, or a policy since deleted: UTC).
 */
export interface PageClockRow {
  /** True: a person's row (`user_id`, `name`); false: a day's row (`day`). */
  by_person: boolean;
  user_id: string | null;
  name: string | null;
  day: string | null;
  iso_weekday: number;
  hour: number;
  pages: number;
}

export async function pageClocks(sql: Queryable, window: AnalyticsWindow): Promise<PageClockRow[]> {
  // The fallback for old steps is a subquery, evaluated only for a step without a zone: by primary key,
  // so the cost follows the window's steps, never the number of escalations ever run. Each step's
  // targets are taken apart once, into one row per person (a person listed twice is one), and both
  // groupings count those rows: grouping by the jsonb target lists instead, and joining them back, cost
  // half as much again.
  return sql<PageClockRow[]>`
    with clocked as materialized (
      select s.targets, (s.fired_at at time zone 'UTC')::date as day,
             extract(isodow from w.wall)::int as iso_weekday, extract(hour from w.wall)::int as hour
      from escalation_steps s
      cross join lateral (
        select s.fired_at at time zone coalesce(
          s.time_zone,
          (select sc.timezone from incident_escalations e
           join escalation_tiers et on et.policy_id = e.policy_id and et.position = s.tier
           join schedules sc on sc.id = et.schedule_id
           where e.incident_id = s.incident_id),
          'UTC') as wall) w
      where s.fired_at >= ${window.from} and s.fired_at < ${window.to}
    ), paged as materialized (
      select c.day, c.iso_weekday, c.hour, p.user_id, p.name
      from clocked c
      cross join lateral (
        select distinct on (coalesce('id:' || (t ->> 'id'), 'name:' || (t ->> 'name')))
               t ->> 'id' as user_id, t ->> 'name' as name
        from jsonb_array_elements(c.targets) as t
      ) p
    )
    select true as by_person, user_id, name, null as day, iso_weekday, hour, count(*)::int as pages
    from paged group by user_id, name, iso_weekday, hour
    union all
    select false, null, null, day::text, iso_weekday, hour, count(*)::int
    from paged group by day, iso_weekday, hour`;
}

/** One row of the noisiest alert titles (`kind` `title`) or of the alerts started on a UTC day (`day`). */
export interface AlertGroupRow {
  kind: 'title' | 'day';
  /** The title, or the day (`YYYY-MM-DD`). */
  key: string;
  /** The dedup key every alert of the title shares; null when they have several, or none. */
  dedup_key: string | null;
  alerts: number;
  incidents: number;
  suppressed: number;
  auto_resolved: number;
}

/**
 * The alerts whose current occurrence started in the window: the `limit` titles with the most alerts
 * (ties by title), and the count per UTC day. Suppressed: a routing rule suppressed it, or a maintenance
 * window holds it. Auto-resolved, among the alerts that reached an incident: the sender resolved it (its
 * `ended_at`) before anyone acknowledged or resolved that incident.
 */
export async function alertGroups(
  sql: Queryable,
  window: AnalyticsWindow,
  limit: number,
): Promise<AlertGroupRow[]> {
  // Whether an alert resolved before anyone acted needs its incident: looked up only for the alerts of
  // the titles listed, not for every alert of the window. An alert without an incident (suppressed,
  // held, unrouted) had nobody to beat, so it is never auto-resolved.
  return sql<AlertGroupRow[]>`
    with started as materialized (
      select a.title, a.dedup_key, a.incident_id, a.status, a.ended_at,
             (a.started_at at time zone 'UTC')::date::text as day,
             (a.suppressed or a.maintenance_window_id is not null) as suppressed
      from alerts a
      where a.started_at >= ${window.from} and a.started_at < ${window.to}
    ), loudest as (
      select title from started group by title order by count(*) desc, title limit ${limit}
    ), listed as (
      select s.*,
             s.incident_id is not null and s.status = 'resolved' and s.ended_at is not null
             and coalesce((select coalesce(i.acknowledged_at, i.resolved_at) from incidents i
                           where i.id = s.incident_id), 'infinity') >= s.ended_at as auto_resolved
      from started s join loudest l on l.title = s.title
    )
    select 'title' as kind, title as key,
           case when count(distinct dedup_key) = 1 and count(dedup_key) = count(*) then min(dedup_key) end
             as dedup_key,
           count(*)::int as alerts, count(distinct incident_id)::int as incidents,
           count(*) filter (where suppressed)::int as suppressed,
           count(*) filter (where auto_resolved)::int as auto_resolved
    from listed
    group by title
    union all
    select 'day', day, null, count(*)::int, 0, 0, 0 from started group by day`;
}
