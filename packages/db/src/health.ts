import type { Queryable } from './client';

/** A round trip to the server; rejects when it cannot answer. */
export async function pingDatabase(sql: Queryable): Promise<void> {
  await sql`select 1`;
}
