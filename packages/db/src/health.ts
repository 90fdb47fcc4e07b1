import type { Queryable } from './client';

/**
 * A round trip to the server; rejects when it cannot answer, or cannot take writes. Firebreak is not
 * working on a server that refuses writes, and `select 1` would say it is. The refusal comes from the
 * server itself (25006, as a refused INSERT would), so the client closes that connection and the next
 * one looks for a read-write host (docs/decisions.md#postgresql-failover).
 */
export async function pingDatabase(sql: Queryable): Promise<void> {
  await sql`
    do $$ begin
      if current_setting('transaction_read_only') = 'on' then
        raise exception 'server is read-only' using errcode = 'read_only_sql_transaction';
      end if;
    end $$`;
}

/** The server's `max_connections` setting. */
export async function maxConnections(sql: Queryable): Promise<number> {
  const [row] = await sql<{ max: number }[]>`select current_setting('max_connections')::int as max`;
  return row!.max;
}
