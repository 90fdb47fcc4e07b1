import type { Queryable } from './client';

/**
 * Shift notices (docs/schedules.md#shift-notices): one row per upcoming shift start, a timer in the sense
 * of docs/architecture.md#timers-are-rows. Planned rows are rewritten from the final shifts; due rows are
 * claimed `for update skip locked`, so any number of workers queue each notice once.
 */

export type NoticeState = 'planned' | 'queued' | 'sent' | 'skipped' | 'cancelled' | 'failed';

export interface ShiftNoticeRow {
  id: string;
  schedule_id: string;
  user_id: string;
  starts_at: Date;
  ends_at: Date;
  state: NoticeState;
  queued_at: Date | null;
  sent_at: Date | null;
  reason: string | null;
}

export interface PlannedNotice {
  userId: string;
  startsAt: Date;
  endsAt: Date;
}

/**
 * Makes the schedule's planned notices from `from` on exactly `notices`: new starts are added, a start
 * that moved or vanished is dropped, an end that moved is updated. Rows already queued or done stay,
 * and are never waited on: a chat job may hold one locked while it sends, and planning holds the
 * schedule's lock. A new start is left out when the same person already has a notice queued or sent
 * in this schedule for a shift that overlaps or touches it: a change that moved the start of an
 * announced shift does not announce it again.
 */
export async function replanNotices(
  sql: Queryable,
  scheduleId: string,
  from: Date,
  notices: readonly PlannedNotice[],
): Promise<void> {
  const users = notices.map((n) => n.userId);
  const starts = notices.map((n) => n.startsAt.toISOString());
  const ends = notices.map((n) => n.endsAt.toISOString());
  await sql`
    delete from shift_notices n
    where n.schedule_id = ${scheduleId} and n.state = 'planned' and n.starts_at >= ${from}
      and not exists (
        select 1 from unnest(${users}::uuid[], ${starts}::timestamptz[]) as p(user_id, starts_at)
        where p.user_id = n.user_id and p.starts_at = n.starts_at)`;
  if (notices.length === 0) return;
  // `on conflict do update` locks the row it meets before its `where` is read, so rows past `planned`
  // are kept out of the insert altogether rather than filtered there.
  await sql`
    insert into shift_notices (schedule_id, user_id, starts_at, ends_at)
    select ${scheduleId}, p.user_id, p.starts_at, p.ends_at
    from unnest(${users}::uuid[], ${starts}::timestamptz[], ${ends}::timestamptz[]) as p(user_id, starts_at, ends_at)
    where not exists (
      select 1 from shift_notices o
      where o.schedule_id = ${scheduleId} and o.user_id = p.user_id and o.state <> 'planned'
        and (o.starts_at = p.starts_at
          or (o.state in ('queued', 'sent') and o.starts_at <= p.ends_at and o.ends_at >= p.starts_at)))
    on conflict (schedule_id, user_id, starts_at) do update set ends_at = excluded.ends_at
    where shift_notices.state = 'planned'`;
}

/** Planned notices due at `now`, locked (others skip them) until the transaction ends. */
export async function claimDueNotices(sql: Queryable, now: Date, limit: number): Promise<ShiftNoticeRow[]> {
  return sql<ShiftNoticeRow[]>`
    select * from shift_notices
    where state = 'planned' and starts_at <= ${now}
    order by starts_at limit ${limit}
    for update skip locked`;
}

/**
 * Notices queued before `queuedBefore` and still `queued`, whose shift still runs: their chat job was
 * lost (a Redis restarted empty). Locked as claimDueNotices does.
 */
export async function claimUnsentNotices(
  sql: Queryable,
  queuedBefore: Date,
  now: Date,
  limit: number,
): Promise<ShiftNoticeRow[]> {
  return sql<ShiftNoticeRow[]>`
    select * from shift_notices
    where state = 'queued' and queued_at < ${queuedBefore} and ends_at > ${now}
    order by starts_at limit ${limit}
    for update skip locked`;
}

export async function setNoticeState(
  sql: Queryable,
  id: string,
  change: { state: NoticeState; at: Date; reason?: string | null },
): Promise<void> {
  await sql`
    update shift_notices set
      state = ${change.state},
      reason = ${change.reason ?? null},
      queued_at = case when ${change.state} = 'queued' then ${change.at}::timestamptz else queued_at end,
      sent_at = case when ${change.state} = 'sent' then ${change.at}::timestamptz else sent_at end
    where id = ${id}`;
}

export interface NoticeToSend extends ShiftNoticeRow {
  schedule_name: string;
  timezone: string;
  slack_user_id: string | null;
  teams_user_id: string | null;
  shift_notices: boolean;
  active: boolean;
}

/**
 * The notice with what its message needs, locked until the transaction ends: a second job for the same
 * notice waits, then finds it sent.
 */
export async function lockNoticeToSend(sql: Queryable, id: string): Promise<NoticeToSend | undefined> {
  const [row] = await sql<NoticeToSend[]>`
    select n.*, s.name as schedule_name, s.timezone, u.slack_user_id, u.teams_user_id, u.shift_notices,
           u.active
    from shift_notices n
    join schedules s on s.id = n.schedule_id
    join users u on u.id = n.user_id
    where n.id = ${id}
    for update of n`;
  return row;
}

/** Rows of shifts that ended before `before`: the history is not kept. */
export async function pruneNotices(sql: Queryable, before: Date): Promise<number> {
  const result = await sql`delete from shift_notices where ends_at < ${before}`;
  return result.count;
}

// Any constant; the planning pass of one worker at a time (others skip that round).
const PLANNING_LOCK_KEY = 7_305_111_018;

/** Takes the planning pass's lock until the transaction ends, without waiting: false when taken. */
export async function tryLockPlanning(sql: Queryable): Promise<boolean> {
  const [row] = await sql<
    { locked: boolean }[]
  >`select pg_try_advisory_xact_lock(${PLANNING_LOCK_KEY}) as locked`;
  return row!.locked;
}

/**
 * Every schedule locked `for share` until the transaction ends: a change of layers or overrides (which
 * locks its schedule `for update` and re-plans itself) then waits for the pass, or the pass waits for it
 * and reads what it committed; the pass never writes a plan older than the change. Answers their ids.
 */
export async function lockSchedulesForPlanning(sql: Queryable): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`select id from schedules order by id for share`;
  return rows.map((r) => r.id);
}
