import type { Queryable } from './client';

// Public updates of incidents (migration 0025, docs/status-page.md).

export type StatusUpdateStatusValue = 'investigating' | 'identified' | 'monitoring' | 'resolved';

export interface PublicIncidentRow {
  incident_id: string;
  public_id: string;
  title: string | null;
  first_published_at: Date;
  last_published_at: Date;
}

export interface StatusUpdateRow {
  id: string;
  incident_id: string;
  status: StatusUpdateStatusValue;
  body: string;
  created_by: string | null;
  created_at: Date;
}

export interface StatusUpdateWithAuthorRow extends StatusUpdateRow {
  created_by_name: string | null;
}

/**
 * A listed incident: its public row, its latest update's status (what the page says of it), and the
 * components it affects.
 */
export interface ListedIncidentRow extends PublicIncidentRow {
  latest_status: StatusUpdateStatusValue;
  component_names: string[];
}

/**
 * Makes the incident public (on its first update) or records a newer update time; a `title` given
 * replaces the heading, an absent one keeps it.
 */
export async function upsertPublicIncident(
  sql: Queryable,
  incidentId: string,
  title: string | null,
  at: Date,
): Promise<PublicIncidentRow> {
  const [row] = await sql<PublicIncidentRow[]>`
    insert into status_page_incidents (incident_id, title, first_published_at, last_published_at)
    values (${incidentId}, ${title}, ${at}, ${at})
    on conflict (incident_id) do update set
      title = coalesce(excluded.title, status_page_incidents.title),
      last_published_at = excluded.last_published_at
    returning *`;
  return row!;
}

export async function insertUpdate(
  sql: Queryable,
  update: { incidentId: string; status: StatusUpdateStatusValue; body: string; createdBy: string | null },
  at: Date,
): Promise<StatusUpdateRow> {
  const [row] = await sql<StatusUpdateRow[]>`
    insert into status_page_updates (incident_id, status, body, created_by, created_at)
    values (${update.incidentId}, ${update.status}, ${update.body}, ${update.createdBy}, ${at})
    returning *`;
  return row!;
}

export async function findPublicIncident(
  sql: Queryable,
  incidentId: string,
): Promise<PublicIncidentRow | undefined> {
  const [row] = await sql<PublicIncidentRow[]>`
    select * from status_page_incidents where incident_id = ${incidentId}`;
  return row;
}

/** One incident's updates, newest first, with their authors' names (console only). */
export async function listUpdatesWithAuthors(
  sql: Queryable,
  incidentId: string,
): Promise<StatusUpdateWithAuthorRow[]> {
  return sql<StatusUpdateWithAuthorRow[]>`
    select s.*, u.name as created_by_name
    from status_page_updates s left join users u on u.id = s.created_by
    where s.incident_id = ${incidentId}
    order by s.created_at desc, s.id desc`;
}

/** The names of the components an incident affects, in page order. */
export async function affectedComponentNames(sql: Queryable, incidentId: string): Promise<string[]> {
  const rows = await sql<{ name: string }[]>`
    select c.name from status_page_components c
    where exists (select 1 from alerts a where a.incident_id = ${incidentId} and a.labels @> c.match)
    order by c.position, c.name, c.id`;
  return rows.map((row) => row.name);
}

/**
 * The incidents the page lists (docs/status-page.md#what-is-public): public ones still open, and
 * resolved ones whose last update is after `resolvedSince`. Those the page calls ongoing (latest update
 * not `resolved`) come first, so that the limit never hides one behind resolved ones; then the most
 * recently updated.
 *
 * Each one's affected components are found the way listComponentsWithSeverity finds them: its alerts
 * read once through the incident index, their labels cut down to the label names some component matches
 * on and folded into the few distinct sets, and each component compared with those sets. The cost
 * follows the listed incidents' alerts, not components × alerts.
 */
export async function listListedIncidents(
  sql: Queryable,
  resolvedSince: Date,
  limit: number,
): Promise<ListedIncidentRow[]> {
  return sql<ListedIncidentRow[]>`
    with listed as materialized (
      select p.*, latest.status as latest_status
      from status_page_incidents p
      join incidents i on i.id = p.incident_id
      cross join lateral (
        select s.status from status_page_updates s
        where s.incident_id = p.incident_id
        order by s.created_at desc, s.id desc
        limit 1
      ) latest
      where i.status <> 'resolved' or p.last_published_at > ${resolvedSince}
      order by (latest.status <> 'resolved') desc, p.last_published_at desc, p.public_id
      limit ${limit}
    ),
    match_keys as (
      select coalesce(array_agg(distinct k.key), '{}') as keys
      from status_page_components c cross join lateral jsonb_object_keys(c.match) as k (key)
    ),
    listed_labels as materialized (
      select distinct l.incident_id, projected.labels
      from listed l
      cross join match_keys m
      cross join lateral (select a.labels from alerts a where a.incident_id = l.incident_id offset 0) a
      cross join lateral (
        select coalesce(jsonb_object_agg(k.key, k.value), '{}'::jsonb) as labels
        from jsonb_each(a.labels) k
        where k.key = any(m.keys)
      ) projected
    )
    select l.*,
           array(select c.name from status_page_components c
                 where exists (select 1 from listed_labels ll
                               where ll.incident_id = l.incident_id and ll.labels @> c.match)
                 order by c.position, c.name, c.id) as component_names
    from listed l
    order by (l.latest_status <> 'resolved') desc, l.last_published_at desc, l.public_id`;
}

/**
 * The newest `perIncident` updates of each of these incidents, newest first, without their authors
 * (what the page shows).
 */
export async function listUpdatesOf(
  sql: Queryable,
  incidentIds: readonly string[],
  perIncident: number,
): Promise<StatusUpdateRow[]> {
  if (incidentIds.length === 0) return [];
  return sql<StatusUpdateRow[]>`
    select u.* from unnest(${incidentIds as string[]}::uuid[]) as listed (incident_id)
    cross join lateral (
      select * from status_page_updates s
      where s.incident_id = listed.incident_id
      order by s.created_at desc, s.id desc
      limit ${perIncident}
    ) u
    order by u.created_at desc, u.id desc`;
}
