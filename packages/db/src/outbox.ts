import type { Queryable } from './client';

export interface InsertOutboxRow {
  jobName: string;
  payload: Record<string, unknown>;
  /** Rows with the same key are relayed in the order they were written (usually the incident id). */
  orderingKey?: string | null;
  availableAt?: Date;
}

/**
 * Records background work in the caller's transaction (ARCHITECTURE.md, "Durability"): it exists if
 * and only if the change that asked for it committed.
 */
export async function insertOutboxRows(sql: Queryable, rows: InsertOutboxRow[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((row) => ({
    job_name: row.jobName,
    payload: row.payload,
    ordering_key: row.orderingKey ?? null,
    ...(row.availableAt ? { available_at: row.availableAt } : {}),
  }));
  await sql`insert into outbox ${sql(values as never)}`;
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
