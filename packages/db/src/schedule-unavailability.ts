import type { Queryable } from './client';

/** Ranges in which a person takes no turn in a schedule's layers (docs/schedules.md#unavailability). */

export interface UnavailabilityRow {
  id: string;
  schedule_id: string;
  user_id: string;
  /** The user's current name. */
  user_name: string;
  starts_at: Date;
  ends_at: Date;
  created_by: string | null;
  created_at: Date;
}

export interface NewUnavailability {
  scheduleId: string;
  userId: string;
  startsAt: Date;
  endsAt: Date;
  createdBy: string | null;
  at: Date;
}

const columns = (sql: Queryable) => sql`
  a.id, a.schedule_id, a.user_id, u.name as user_name, a.starts_at, a.ends_at, a.created_by, a.created_at`;

export async function insertUnavailability(sql: Queryable, n: NewUnavailability): Promise<UnavailabilityRow> {
  const [inserted] = await sql<{ id: string }[]>`
    insert into schedule_unavailability (schedule_id, user_id, starts_at, ends_at, created_by, created_at)
    values (${n.scheduleId}, ${n.userId}, ${n.startsAt}, ${n.endsAt}, ${n.createdBy}, ${n.at})
    returning id`;
  return (await findUnavailabilityById(sql, inserted!.id))!;
}

export async function findUnavailabilityById(
  sql: Queryable,
  id: string,
): Promise<UnavailabilityRow | undefined> {
  const [row] = await sql<UnavailabilityRow[]>`
    select ${columns(sql)} from schedule_unavailability a join users u on u.id = a.user_id
    where a.id = ${id}`;
  return row;
}

/** Locks the range until the transaction ends (a delete checks whose it is first). */
export async function lockUnavailability(sql: Queryable, id: string): Promise<UnavailabilityRow | undefined> {
  const [row] = await sql<UnavailabilityRow[]>`
    select ${columns(sql)} from schedule_unavailability a join users u on u.id = a.user_id
    where a.id = ${id} for update of a`;
  return row;
}

/** The ranges of these schedules that overlap [from, to), by start; of one user only with `userId`. */
export async function findUnavailability(
  sql: Queryable,
  scheduleIds: readonly string[],
  from: Date,
  to: Date,
  userId?: string,
): Promise<UnavailabilityRow[]> {
  if (scheduleIds.length === 0) return [];
  return sql<UnavailabilityRow[]>`
    select ${columns(sql)} from schedule_unavailability a join users u on u.id = a.user_id
    where a.schedule_id = any(${scheduleIds as string[]}::uuid[])
      and a.ends_at > ${from} and a.starts_at < ${to}
      ${userId ? sql`and a.user_id = ${userId}` : sql``}
    order by a.starts_at, a.created_at, a.id`;
}

/** How many ranges of `userId` in this schedule are not over at `now` (the per-person cap). */
export async function countUnfinishedUnavailability(
  sql: Queryable,
  scheduleId: string,
  userId: string,
  now: Date,
): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    select count(*)::int as count from schedule_unavailability
    where schedule_id = ${scheduleId} and user_id = ${userId} and ends_at > ${now}`;
  return row!.count;
}

export async function deleteUnavailability(sql: Queryable, id: string): Promise<boolean> {
  const result = await sql`delete from schedule_unavailability where id = ${id}`;
  return result.count > 0;
}
