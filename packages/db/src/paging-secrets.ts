import type { Queryable } from './client';

/**
 * The key that signs acknowledge links. The first caller stores the random key it offers; every later
 * caller (and every other process) reads that one back, so all agree on it.
 */
export async function ensureLinkKey(sql: Queryable, offered: Buffer): Promise<Buffer> {
  await sql`insert into paging_secrets (id, link_key) values (true, ${offered}) on conflict do nothing`;
  const [row] = await sql<{ link_key: Buffer }[]>`select link_key from paging_secrets where id`;
  return row!.link_key;
}
