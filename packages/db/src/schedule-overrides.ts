import type { Queryable } from './client';

/** Overrides of a schedule's layers (docs/schedules.md#overrides). */

export interface OverrideRow {
  id: string;
  schedule_id: string;
  user_id: string;
  /** The user's current name. */
  user_name: string;
  replaces_user_id: string | null;
  starts_at: Date;
  ends_at: Date;
  created_by: string | null;
  created_at: Date;
}

export interface NewOverride {
  scheduleId: string;
  userId: string;
  replacesUserId: string | null;
  startsAt: Date;
  endsAt: Date;
  createdBy: string | null;
  at: Date;
  /** The source's id, for an imported override: the same one imported again is not added twice. */
  externalId?: string;
}

const columns = (sql: Queryable) => sql`
  o.id, o.schedule_id, o.user_id, u.name as user_name, o.replaces_user_id, o.starts_at, o.ends_at,
  o.created_by, o.created_at`;

/** Undefined when the import already brought this override (same schedule and external id). */
export async function insertOverride(sql: Queryable, o: NewOverride): Promise<OverrideRow | undefined> {
  const [inserted] = await sql<{ id: string }[]>`
    insert into schedule_overrides
      (schedule_id, user_id, replaces_user_id, starts_at, ends_at, created_by, created_at, external_id)
    values (${o.scheduleId}, ${o.userId}, ${o.replacesUserId}, ${o.startsAt}, ${o.endsAt},
      ${o.createdBy}, ${o.at}, ${o.externalId ?? null})
    on conflict (schedule_id, external_id) do nothing
    returning id`;
  return inserted ? findOverride(sql, inserted.id) : undefined;
}

export async function findOverride(sql: Queryable, id: string): Promise<OverrideRow | undefined> {
  const [row] = await sql<OverrideRow[]>`
    select ${columns(sql)} from schedule_overrides o join users u on u.id = o.user_id
    where o.id = ${id}`;
  return row;
}

/** Locks the override until the transaction ends (a delete checks who made it first). */
export async function lockOverride(sql: Queryable, id: string): Promise<OverrideRow | undefined> {
  const [row] = await sql<OverrideRow[]>`
    select ${columns(sql)} from schedule_overrides o join users u on u.id = o.user_id
    where o.id = ${id} for update of o`;
  return row;
}

/** The overrides of these schedules that overlap [from, to), by start. */
export async function findOverrides(
  sql: Queryable,
  scheduleIds: readonly string[],
  from: Date,
  to: Date,
): Promise<OverrideRow[]> {
  if (scheduleIds.length === 0) return [];
  return sql<OverrideRow[]>`
    select ${columns(sql)} from schedule_overrides o join users u on u.id = o.user_id
    where o.schedule_id = any(${scheduleIds as string[]}::uuid[])
      and o.ends_at > ${from} and o.starts_at < ${to}
    order by o.starts_at, o.created_at, o.id`;
}

export async function deleteOverride(sql: Queryable, id: string): Promise<boolean> {
  const result = await sql`delete from schedule_overrides where id = ${id}`;
  return result.count > 0;
}
