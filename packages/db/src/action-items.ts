import type { Queryable } from './client';

/** A post-mortem action item with its incident's number and title and its owner's name. */
export interface ActionItemRow {
  id: string;
  incident_id: string;
  incident_number: number;
  incident_title: string;
  title: string;
  owner_id: string | null;
  owner_name: string | null;
  /** YYYY-MM-DD. */
  due_date: string | null;
  status: 'open' | 'done';
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

// Every read joins the incident and the owner; the date is read as text, so no time zone shifts it.
const columns = (sql: Queryable) => sql`
  a.id, a.incident_id, i.number as incident_number, i.title as incident_title, a.title,
  a.owner_id, u.name as owner_name, a.due_date::text as due_date, a.status,
  a.created_at, a.updated_at, a.completed_at`;
const joined = (sql: Queryable) => sql`
  postmortem_action_items a join incidents i on i.id = a.incident_id left join users u on u.id = a.owner_id`;

export async function findActionItem(
  sql: Queryable,
  incidentId: string,
  id: string,
): Promise<ActionItemRow | undefined> {
  const [row] = await sql<ActionItemRow[]>`
    select ${columns(sql)} from ${joined(sql)} where a.id = ${id} and a.incident_id = ${incidentId}`;
  return row;
}

/** One incident's items, oldest first. */
export async function listIncidentActionItems(sql: Queryable, incidentId: string): Promise<ActionItemRow[]> {
  return sql<ActionItemRow[]>`
    select ${columns(sql)} from ${joined(sql)} where a.incident_id = ${incidentId}
    order by a.created_at, a.id`;
}

/**
 * Where an item sits in the list across incidents: `rank` 0 for overdue (open, due before `today`), 1 for
 * the others with a due date, 2 for those without; then by due date, creation and id.
 */
export interface ActionItemPosition {
  rank: number;
  due: string;
  createdAt: Date;
  id: string;
}

export interface ActionItemFilter {
  status?: 'open' | 'done' | undefined;
  ownerId?: string | undefined;
  /** YYYY-MM-DD, UTC: what "overdue" is measured against. */
  today: string;
  after?: ActionItemPosition | undefined;
  limit: number;
}

export async function listActionItems(
  sql: Queryable,
  filter: ActionItemFilter,
): Promise<Array<ActionItemRow & { rank: number; due: string }>> {
  const rank = sql`(case when a.status = 'open' and a.due_date < ${filter.today}::date then 0
                         when a.due_date is not null then 1 else 2 end)`;
  // 'infinity' sorts after every date, so items without one come last in their rank.
  const due = sql`coalesce(a.due_date, 'infinity'::date)`;
  const after = filter.after;
  return sql<Array<ActionItemRow & { rank: number; due: string }>>`
    select ${columns(sql)}, ${rank} as rank, ${due}::text as due
    from ${joined(sql)}
    where true
      ${filter.status ? sql`and a.status = ${filter.status}` : sql``}
      ${filter.ownerId ? sql`and a.owner_id = ${filter.ownerId}` : sql``}
      ${
        after
          ? sql`and (${rank}, ${due}, a.created_at, a.id) >
                    (${after.rank}::int, ${after.due}::date, ${after.createdAt}::timestamptz, ${after.id}::uuid)`
          : sql``
      }
    order by ${rank}, ${due}, a.created_at, a.id
    limit ${filter.limit}`;
}

export async function insertActionItem(
  sql: Queryable,
  item: { incidentId: string; title: string; ownerId: string | null; dueDate: string | null; at: Date },
): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
    insert into postmortem_action_items (incident_id, title, owner_id, due_date, created_at, updated_at)
    values (${item.incidentId}, ${item.title}, ${item.ownerId}, ${item.dueDate}, ${item.at}, ${item.at})
    returning id`;
  return row!.id;
}

/** Only the fields given change; `null` clears the owner or the due date. */
export interface ActionItemChanges {
  title?: string | undefined;
  ownerId?: string | null | undefined;
  dueDate?: string | null | undefined;
  status?: 'open' | 'done' | undefined;
  at: Date;
}

/**
 * Writes the given fields and nothing else, in one statement: two people changing different fields at
 * once both keep their change (a read-then-write-everything would put back the other's old value).
 * `completed_at` is set when the item becomes done and cleared when it reopens. False: no such item.
 */
export async function updateActionItem(
  sql: Queryable,
  incidentId: string,
  id: string,
  changes: ActionItemChanges,
): Promise<boolean> {
  const { title, ownerId, dueDate, status } = changes;
  const result = await sql`
    update postmortem_action_items
    set updated_at = ${changes.at}
      ${title !== undefined ? sql`, title = ${title}` : sql``}
      ${ownerId !== undefined ? sql`, owner_id = ${ownerId}` : sql``}
      ${dueDate !== undefined ? sql`, due_date = ${dueDate}` : sql``}
      ${
        status !== undefined
          ? sql`, status = ${status},
                completed_at = case when ${status} = 'open' then null
                                    when status = 'done' then completed_at else ${changes.at}::timestamptz end`
          : sql``
      }
    where id = ${id} and incident_id = ${incidentId}`;
  return result.count > 0;
}

export async function deleteActionItem(sql: Queryable, incidentId: string, id: string): Promise<boolean> {
  const result = await sql`
    delete from postmortem_action_items where id = ${id} and incident_id = ${incidentId}`;
  return result.count > 0;
}
