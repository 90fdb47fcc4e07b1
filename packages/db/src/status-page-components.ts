import type { Queryable } from './client';

// The status page's components (migration 0025, docs/status-page.md).

export type ComponentStatusValue = 'operational' | 'degraded' | 'partial_outage' | 'major_outage';

export interface ComponentRow {
  id: string;
  name: string;
  group_name: string | null;
  match: Record<string, string>;
  position: number;
  status: ComponentStatusValue | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * A component and the worst severity among the open incidents it follows: 3 critical, 2 high,
 * 1 medium or low, 0 none.
 */
export interface ComponentWithSeverityRow extends ComponentRow {
  open_severity_rank: number;
}

export interface ComponentFields {
  name: string;
  groupName: string | null;
  match: Record<string, string>;
  /** Undefined: after every other component. */
  position: number | undefined;
  status: ComponentStatusValue | null;
}

/**
 * Every component in page order, each with the worst severity of the open incidents whose linked
 * alerts carry all of its match's labels (an incident has no labels of its own: its alerts' labels,
 * integration labels included, are its labels). One query for the whole page, whose cost follows the
 * open incidents' alerts, not the history nor components × alerts
 * (docs/status-page.md#how-status-is-computed):
 * - open incidents through their status index, and each one's alerts through the incident index
 *   (`offset 0` keeps the planner from hashing the whole alerts table instead, which it estimates
 *   cheaper while the table is small and which grows with every alert ever received);
 * - each alert's labels cut down to the label names some component matches on, so that alerts that
 *   differ only by a pod or an instance fold into one row with its worst severity;
 * - each component compares its match with those few rows.
 */
export async function listComponentsWithSeverity(sql: Queryable): Promise<ComponentWithSeverityRow[]> {
  return sql<ComponentWithSeverityRow[]>`
    with match_keys as (
      select coalesce(array_agg(distinct k.key), '{}') as keys
      from status_page_components c cross join lateral jsonb_object_keys(c.match) as k (key)
    ),
    open_labels as materialized (
      select projected.labels,
             max(case i.severity when 'critical' then 3 when 'high' then 2 else 1 end) as rank
      from incidents i
      cross join match_keys m
      cross join lateral (select a.labels from alerts a where a.incident_id = i.id offset 0) a
      cross join lateral (
        select coalesce(jsonb_object_agg(l.key, l.value), '{}'::jsonb) as labels
        from jsonb_each(a.labels) l
        where l.key = any(m.keys)
      ) projected
      where i.status in ('triggered', 'acknowledged')
      group by projected.labels
    )
    select c.*,
           coalesce((select max(l.rank) from open_labels l where l.labels @> c.match), 0)::int
             as open_severity_rank
    from status_page_components c
    order by c.position, c.name, c.id`;
}

export async function findComponent(sql: Queryable, id: string): Promise<ComponentRow | undefined> {
  const [row] = await sql<ComponentRow[]>`select * from status_page_components where id = ${id}`;
  return row;
}

/** The same severity rank as listComponentsWithSeverity, for one component (after a write). */
export async function openSeverityRank(sql: Queryable, match: Record<string, string>): Promise<number> {
  const [row] = await sql<{ rank: number }[]>`
    select coalesce(max(case i.severity when 'critical' then 3 when 'high' then 2 else 1 end), 0)::int
             as rank
    from incidents i
    join alerts a on a.incident_id = i.id
    where i.status in ('triggered', 'acknowledged') and a.labels @> ${sql.json(match)}::jsonb`;
  return row?.rank ?? 0;
}

export async function insertComponent(
  sql: Queryable,
  fields: ComponentFields,
  at: Date,
): Promise<ComponentRow> {
  const [row] = await sql<ComponentRow[]>`
    insert into status_page_components (name, group_name, match, position, status, created_at, updated_at)
    values (
      ${fields.name}, ${fields.groupName}, ${sql.json(fields.match)},
      coalesce(${fields.position ?? null}::int,
               (select coalesce(max(position) + 1, 0) from status_page_components)),
      ${fields.status}, ${at}, ${at})
    returning *`;
  return row!;
}

/** Changes the fields given (a given null clears group or status); undefined when there is none. */
export async function updateComponent(
  sql: Queryable,
  id: string,
  changes: Partial<ComponentFields>,
  at: Date,
): Promise<ComponentRow | undefined> {
  const setsGroup = changes.groupName !== undefined;
  const setsStatus = changes.status !== undefined;
  const [row] = await sql<ComponentRow[]>`
    update status_page_components set
      name = coalesce(${changes.name ?? null}, name),
      group_name = case when ${setsGroup} then ${changes.groupName ?? null}::text else group_name end,
      match = coalesce(${changes.match ? sql.json(changes.match) : null}::jsonb, match),
      position = coalesce(${changes.position ?? null}::int, position),
      status = case when ${setsStatus} then ${changes.status ?? null}::text else status end,
      updated_at = ${at}
    where id = ${id}
    returning *`;
  return row;
}

export async function deleteComponent(sql: Queryable, id: string): Promise<boolean> {
  const rows = await sql`delete from status_page_components where id = ${id} returning id`;
  return rows.length > 0;
}
