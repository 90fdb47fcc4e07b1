import type { Queryable } from './client';
import type { ContactMethodType } from './contact-methods';

export type PageDeliveryStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'skipped';

export interface PageDeliveryRow {
  id: string;
  incident_id: string;
  round: number;
  tier: number;
  user_id: string;
  rule_position: number;
  method: ContactMethodType;
  /** Null once the contact method was deleted: the row stays as history, and is never sent. */
  contact_method_id: string | null;
  status: PageDeliveryStatus;
  due_at: Date;
  next_attempt_at: Date;
  attempts: number;
  claimed_at: Date | null;
  ack_code: string | null;
  provider_id: string | null;
  last_error: string | null;
  sent_at: Date | null;
  created_at: Date;
}

export interface NewPageDelivery {
  incidentId: string;
  round: number;
  tier: number;
  userId: string;
  rulePosition: number;
  method: ContactMethodType;
  contactMethodId: string;
  dueAt: Date;
  ackCode: string | null;
}

/** Inserts a step's deliveries; a row already there (the step retried) is left alone. */
export async function insertDeliveries(
  sql: Queryable,
  rows: readonly NewPageDelivery[],
  at: Date,
): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await sql`
    insert into page_deliveries ${sql(
      rows.map((r) => ({
        incident_id: r.incidentId,
        round: r.round,
        tier: r.tier,
        user_id: r.userId,
        rule_position: r.rulePosition,
        method: r.method,
        contact_method_id: r.contactMethodId,
        due_at: r.dueAt,
        next_attempt_at: r.dueAt,
        ack_code: r.ackCode,
        created_at: at,
      })),
    )}
    on conflict do nothing`;
  return result.count;
}

/**
 * Serialises the choice of acknowledge codes for one person: two incidents paging them at once would
 * otherwise both pick the same free code. Callers lock their people in id order (no deadlock).
 */
export async function lockCodesOf(sql: Queryable, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`page-codes:${userId}`}, 0))`;
}

/** The codes a person's pages still open (incident triggered) use, and which incident has which. */
export async function listOpenCodes(
  sql: Queryable,
  userId: string,
): Promise<{ incident_id: string; ack_code: string }[]> {
  return sql<{ incident_id: string; ack_code: string }[]>`
    select distinct d.incident_id, d.ack_code from page_deliveries d
    join incidents i on i.id = d.incident_id
    where d.user_id = ${userId} and d.ack_code is not null and i.status = 'triggered'`;
}

/**
 * The reconciler's claim: due pending rows whose wake-up job was never queued, or was queued so long
 * ago that it must have been lost (Redis restarted empty). Stamped in the same statement, so two
 * reconcilers never queue the same row at once; `skip locked` lets them share the rows.
 */
export async function wakeDueDeliveries(
  sql: Queryable,
  now: Date,
  rewakeBefore: Date,
  limit: number,
): Promise<{ id: string; wakeups: number }[]> {
  return sql<{ id: string; wakeups: number }[]>`
    with due as (
      select id from page_deliveries
      where status = 'pending' and next_attempt_at <= ${now}
        and (woken_at is null or woken_at < ${rewakeBefore})
      order by next_attempt_at limit ${limit}
      for update skip locked
    )
    update page_deliveries d set woken_at = ${now}, wakeups = d.wakeups + 1
    from due where d.id = due.id
    returning d.id, d.wakeups`;
}

/**
 * Rows left `sending` by a worker that died mid-send: back to pending, to be sent again. Only rows
 * claimed longer ago than any send can take (docs/paging.md#exactly-once).
 */
export async function releaseStaleSending(
  sql: Queryable,
  staleBefore: Date,
  now: Date,
): Promise<PageDeliveryRow[]> {
  return sql<PageDeliveryRow[]>`
    update page_deliveries set status = 'pending', next_attempt_at = ${now}, claimed_at = null
    where status = 'sending' and claimed_at < ${staleBefore}
    returning *`;
}

/** Locks a due pending row for its claim; undefined when it is not due, not pending or taken. */
export async function lockDueDelivery(
  sql: Queryable,
  id: string,
  now: Date,
): Promise<PageDeliveryRow | undefined> {
  const [row] = await sql<PageDeliveryRow[]>`
    select * from page_deliveries
    where id = ${id} and status = 'pending' and next_attempt_at <= ${now}
    for update skip locked`;
  return row;
}

export async function markSending(sql: Queryable, id: string, at: Date): Promise<void> {
  await sql`
    update page_deliveries set status = 'sending', claimed_at = ${at}, attempts = attempts + 1
    where id = ${id}`;
}

export async function markSkipped(sql: Queryable, id: string, reason: string): Promise<void> {
  await sql`update page_deliveries set status = 'skipped', last_error = ${reason} where id = ${id}`;
}

/** A contact method is being deleted: its pages not yet sent never will be (their rows stay). */
export async function skipPendingOfContactMethod(
  sql: Queryable,
  contactMethodId: string,
  reason: string,
): Promise<void> {
  await sql`
    update page_deliveries set status = 'skipped', last_error = ${reason}
    where contact_method_id = ${contactMethodId} and status = 'pending'`;
}

/** What a send came to, recorded only while the row is still this worker's (`sending`). */
export async function recordSendOutcome(
  sql: Queryable,
  id: string,
  outcome: {
    status: 'sent' | 'failed' | 'pending';
    providerId: string | null;
    error: string | null;
    nextAttemptAt: Date | null;
    at: Date;
  },
): Promise<boolean> {
  const result = await sql`
    update page_deliveries set status = ${outcome.status}, provider_id = ${outcome.providerId},
      last_error = ${outcome.error}, claimed_at = null,
      next_attempt_at = coalesce(${outcome.nextAttemptAt}, next_attempt_at),
      sent_at = case when ${outcome.status} = 'sent' then ${outcome.at}::timestamptz else sent_at end
    where id = ${id} and status = 'sending'`;
  return result.count > 0;
}

/** The open page (incident still triggered) of this person that carries this code. */
export async function findOpenDeliveryByCode(
  sql: Queryable,
  userIds: readonly string[],
  code: string,
): Promise<{ incident_id: string; user_id: string } | undefined> {
  if (userIds.length === 0) return undefined;
  const [row] = await sql<{ incident_id: string; user_id: string }[]>`
    select d.incident_id, d.user_id from page_deliveries d
    join incidents i on i.id = d.incident_id
    where d.user_id = any(${userIds as string[]}::uuid[]) and d.ack_code = ${code}
      and i.status = 'triggered'
    order by d.created_at desc limit 1`;
  return row;
}

/** An incident's deliveries, oldest first (the tests, the drill, and whoever investigates). */
export async function listIncidentDeliveries(sql: Queryable, incidentId: string): Promise<PageDeliveryRow[]> {
  return sql<PageDeliveryRow[]>`
    select * from page_deliveries where incident_id = ${incidentId}
    order by round, tier, user_id, rule_position, created_at`;
}

export async function findDelivery(sql: Queryable, id: string): Promise<PageDeliveryRow | undefined> {
  const [row] = await sql<PageDeliveryRow[]>`select * from page_deliveries where id = ${id}`;
  return row;
}
