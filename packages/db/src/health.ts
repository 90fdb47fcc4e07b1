import type { Queryable } from './client';

/** A round trip to the server; rejects when it cannot answer. */
export async function pingDatabase(sql: Queryable): Promise<void> {
  await sql`select 1`;
}

/** The server's `max_connections` setting. */
export async function maxConnections(sql: Queryable): Promise<number> {
  const [row] = await sql<{ max: number }[]>`select current_setting('max_connections')::int as max`;
  return row!.max;
}
