import type { AlertRow } from './alerts';
import type { Queryable } from './client';

export interface MaintenanceMatch {
  integration_ids?: string[];
  labels?: Record<string, string>;
}

export interface MaintenanceWindowRow {
  id: string;
  name: string;
  starts_at: Date;
  ends_at: Date;
  match: MaintenanceMatch;
  created_by: string | null;
  created_at: Date;
  released_at: Date | null;
}

/**
 * The windows in force at `at` (started, not ended, not released), oldest start first.
 *
 * Locked `for key share` until the caller commits: an alert held by a window is then always committed
 * before that window's release reads its held alerts (the release claims the window `for update`, which
 * waits for, or skips, this lock). Without it, an alert held just as the window ended could be committed
 * after the release and stay held forever. Key share locks do not conflict with each other, so
 * concurrent batches never wait on one another here.
 */
export async function listActiveWindows(sql: Queryable, at: Date): Promise<MaintenanceWindowRow[]> {
  return sql<MaintenanceWindowRow[]>`
    select * from maintenance_windows
    where starts_at <= ${at} and ends_at > ${at} and released_at is null
    order by starts_at, id
    for key share`;
}

export interface MaintenanceWindowFields {
  name: string;
  startsAt: Date;
  endsAt: Date;
  match: MaintenanceMatch;
  createdBy: string | null;
}

export async function insertWindow(
  sql: Queryable,
  fields: MaintenanceWindowFields,
  at: Date,
): Promise<MaintenanceWindowRow> {
  const [row] = await sql<MaintenanceWindowRow[]>`
    insert into maintenance_windows (name, starts_at, ends_at, match, created_by, created_at)
    values (${fields.name}, ${fields.startsAt}, ${fields.endsAt}, ${sql.json(fields.match as never)},
            ${fields.createdBy}, ${at})
    returning *`;
  return row!;
}

export type WindowStatus = 'scheduled' | 'active' | 'ended';

/** Newest start first; `status` as it stands at `at` (the bounds of domain's maintenanceStatus). */
export async function listWindows(
  sql: Queryable,
  filter: { status?: WindowStatus; at: Date },
): Promise<MaintenanceWindowRow[]> {
  const { status, at } = filter;
  const where =
    status === 'scheduled'
      ? sql`where starts_at > ${at}`
      : status === 'active'
        ? sql`where starts_at <= ${at} and ends_at > ${at}`
        : status === 'ended'
          ? sql`where ends_at <= ${at}`
          : sql``;
  return sql<MaintenanceWindowRow[]>`
    select * from maintenance_windows ${where}
    order by starts_at desc, created_at desc, id`;
}

/**
 * For deleting window `id`: locks it `for update` (waiting for a release or an intake batch that holds
 * it) and every other window active at `at` `for key share` (the windows its alerts may move to), all
 * in id order, one row at a time. Two deletes each locking their own window first and then the other's
 * would deadlock; in one order, the second waits for the first. Answers the window (undefined when
 * there is none) and the others still active once locked.
 */
export async function lockWindowForDelete(
  sql: Queryable,
  id: string,
  at: Date,
): Promise<{ window: MaintenanceWindowRow | undefined; others: MaintenanceWindowRow[] }> {
  const candidates = await sql<{ id: string }[]>`
    select id from maintenance_windows
    where id = ${id} or (starts_at <= ${at} and ends_at > ${at} and released_at is null)
    order by id`;
  let window: MaintenanceWindowRow | undefined;
  const others: MaintenanceWindowRow[] = [];
  for (const candidate of candidates) {
    if (candidate.id === id) {
      [window] = await sql<MaintenanceWindowRow[]>`
        select * from maintenance_windows where id = ${id} for update`;
    } else {
      // Re-checked under the lock: a window another delete ended meanwhile holds nothing any more.
      const [other] = await sql<MaintenanceWindowRow[]>`
        select * from maintenance_windows
        where id = ${candidate.id} and starts_at <= ${at} and ends_at > ${at} and released_at is null
        for key share`;
      if (other) others.push(other);
    }
  }
  // The order intake picks a holding window in (listActiveWindows).
  others.sort((a, b) => a.starts_at.getTime() - b.starts_at.getTime() || (a.id < b.id ? -1 : 1));
  return { window, others };
}

export async function deleteWindow(sql: Queryable, id: string): Promise<void> {
  await sql`delete from maintenance_windows where id = ${id}`;
}

/** Ends an active window now, its held alerts released by the caller in the same transaction. */
export async function endWindowNow(sql: Queryable, id: string, at: Date): Promise<void> {
  await sql`update maintenance_windows set ends_at = ${at}, released_at = ${at} where id = ${id}`;
}

/**
 * One window that has ended and whose held alerts are not released yet (but none of `skip`), locked
 * for this transaction.
 * `skip locked`: concurrent release passes (one per worker) each take a different window, and a window
 * an intake batch is still holding alerts under is taken by the next pass, once that batch committed.
 */
export async function claimEndedWindow(
  sql: Queryable,
  at: Date,
  skip: readonly string[] = [],
): Promise<MaintenanceWindowRow | undefined> {
  const [row] = await sql<MaintenanceWindowRow[]>`
    select * from maintenance_windows
    where released_at is null and ends_at <= ${at} and id <> all(${skip as string[]}::uuid[])
    order by ends_at, id
    limit 1
    for update skip locked`;
  return row;
}

export async function markReleased(sql: Queryable, id: string, at: Date): Promise<void> {
  await sql`update maintenance_windows set released_at = ${at} where id = ${id}`;
}

/** A held alert, and the escalation policy of the integration it came through (routing's fallback). */
export interface HeldAlertRow extends AlertRow {
  integration_escalation_policy_id: string | null;
}

/**
 * The alerts a window holds back, locked in the order intake locks alerts (scope, then dedup key), so
 * a release and a batch updating the same alerts wait for each other instead of deadlocking.
 */
export async function lockHeldAlerts(sql: Queryable, windowId: string): Promise<HeldAlertRow[]> {
  return sql<HeldAlertRow[]>`
    select a.*, i.escalation_policy_id as integration_escalation_policy_id
    from alerts a left join integrations i on i.id = a.integration_id
    where a.maintenance_window_id = ${windowId}
    order by a.integration, a.dedup_key, a.id
    for update of a`;
}

/** Lifts the hold: the alerts stay as they are, linked to nothing (routing, if any, comes next). */
export async function clearHolds(sql: Queryable, alertIds: readonly string[]): Promise<void> {
  if (alertIds.length === 0) return;
  await sql`update alerts set maintenance_window_id = null where id = any(${alertIds as string[]}::uuid[])`;
}

/** Which of these integration ids name no integration. */
export async function missingIntegrationIds(sql: Queryable, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await sql<{ id: string }[]>`
    select id from unnest(${ids as string[]}::uuid[]) as given (id)
    where not exists (select 1 from integrations i where i.id = given.id)`;
  return rows.map((row) => row.id);
}
