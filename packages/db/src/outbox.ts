import type { JobName, JobPayload } from '@firebreak/schema';
import type { Queryable } from './client';

/**
 * One job of the catalog, waiting in PostgreSQL to be queued. Typed against the catalog (the row is
 * the job's durable half), so an unknown job name or a payload of the wrong shape does not compile.
 */
export type OutboxJob = {
  [N in JobName]: {
    name: N;
    payload: JobPayload<N>;
    /** Rows with the same key are relayed in the order they were written (usually the incident id). */
    orderingKey?: string | null;
    availableAt?: Date;
  };
}[JobName];

/**
 * Records background work in the caller's transaction: it exists if and only if the change that
 * asked for it committed.
 */
export async function insertOutboxRows(sql: Queryable, jobs: readonly OutboxJob[]): Promise<void> {
  if (jobs.length === 0) return;
  await outboxInsertSql(sql, jobs);
}

/**
 * The insert of outbox rows (no `returning`), ids given in the order of `jobs`. The rows go in as ONE
 * jsonb parameter, so the statement has one text however many there are
 * (docs/decisions.md#one-text-per-statement).
 */
export function outboxInsertSql(sql: Queryable, jobs: readonly OutboxJob[]) {
  const rows = jobs.map((job) => ({
    job_name: job.name,
    payload: job.payload,
    ordering_key: job.orderingKey ?? null,
    available_at: job.availableAt?.toISOString() ?? null,
  }));
  return sql`
    insert into outbox (job_name, payload, ordering_key, available_at)
    select r.value ->> 'job_name', r.value -> 'payload', r.value ->> 'ordering_key',
           coalesce((r.value ->> 'available_at')::timestamptz, now())
    from jsonb_array_elements(${sql.json(rows as never)}) with ordinality as r(value, n)
    order by r.n`;
}

export interface OutboxRow {
  id: string;
  job_name: string;
  payload: Record<string, unknown>;
  ordering_key: string | null;
  available_at: Date;
  created_at: Date;
  sent_at: Date | null;
}

/** Rows not yet relayed, oldest first. */
export async function listPendingOutbox(sql: Queryable, limit = 100): Promise<OutboxRow[]> {
  return sql<OutboxRow[]>`
    select id, job_name, payload, ordering_key, available_at, created_at, sent_at
    from outbox where sent_at is null order by id limit ${limit}`;
}

// Any constant; only one relay works at a time, so the queue receives rows in outbox order.
const RELAY_LOCK_KEY = 7_305_111_003;

/**
 * Takes the relay's lock until the transaction ends, without waiting: false when another relay holds
 * it (that one is moving the rows; this one tries again next round).
 */
export async function tryLockRelay(sql: Queryable): Promise<boolean> {
  const [row] = await sql<
    { locked: boolean }[]
  >`select pg_try_advisory_xact_lock(${RELAY_LOCK_KEY}) as locked`;
  return row?.locked ?? false;
}

/** A row about to be relayed, as stored: the relay checks its name and payload against the catalog. */
export interface RelayRow {
  id: string;
  job_name: string;
  payload: Record<string, unknown>;
  /** How long until the row is due, by the database's clock (which also wrote `available_at`). */
  delay_ms: number;
}

/** The oldest rows not yet relayed (due or not: a row not yet due becomes a delayed job). */
export async function listRowsToRelay(sql: Queryable, limit: number): Promise<RelayRow[]> {
  return sql<RelayRow[]>`
    select id, job_name, payload,
           greatest(0, extract(epoch from (available_at - now())) * 1000)::int as delay_ms
    from outbox where sent_at is null order by id limit ${limit}`;
}

export async function markOutboxSent(sql: Queryable, ids: readonly string[]): Promise<void> {
  await sql`update outbox set sent_at = now(), attempts = attempts + 1 where id = any(${ids as string[]})`;
}

/** Why a row could not be relayed (it is marked sent all the same, so it holds up nothing). */
export async function recordOutboxError(sql: Queryable, id: string, error: string): Promise<void> {
  await sql`update outbox set last_error = ${error} where id = ${id}`;
}

/**
 * For the rest of this transaction, outbox rows do not NOTIFY the relay from inside it: the caller
 * wakes it after the commit (`wakeOutboxRelay`). See migration 0021 for why.
 */
export async function deferRelayWake(sql: Queryable): Promise<void> {
  await sql`select set_config('firebreak.wake', 'after_commit', true)`;
}

/**
 * Wakes the outbox relay, outside any transaction of the caller. Its own commit does not wait for the
 * disk: a wake lost in a crash only means the relay's next poll moves the rows.
 */
export async function wakeRelay(sql: Queryable): Promise<void> {
  await sql`select set_config('synchronous_commit', 'off', true), pg_notify('firebreak_outbox', '')`;
}
