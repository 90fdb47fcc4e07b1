import type { Role } from '@firebreak/schema';
import type { Queryable } from './client';

export interface ApiKeyRow {
  id: string;
  name: string;
  role: Role;
  created_by: string | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export async function insertApiKey(
  sql: Queryable,
  key: { name: string; role: Role; tokenHash: Buffer; createdBy: string | null },
): Promise<ApiKeyRow> {
  const [row] = await sql<ApiKeyRow[]>`
    insert into api_keys (name, role, token_hash, created_by)
    values (${key.name}, ${key.role}, ${key.tokenHash}, ${key.createdBy})
    returning id, name, role, created_by, created_at, last_used_at, revoked_at`;
  return row!;
}

export async function listActiveApiKeys(sql: Queryable): Promise<ApiKeyRow[]> {
  return sql<ApiKeyRow[]>`
    select id, name, role, created_by, created_at, last_used_at, revoked_at
    from api_keys where revoked_at is null order by created_at, id`;
}

/** A live key with the name and e-mail of the user who created it (null when that user is gone). */
export interface UsableApiKey extends ApiKeyRow {
  creator_name: string | null;
  creator_email: string | null;
}

/**
 * Finds a live key by its token digest, with its creator, in one query, and records the use.
 * `last_used_at` is only written when it is more than a minute old, so a busy script does not turn
 * every request into a row update.
 */
export async function useApiKey(
  sql: Queryable,
  tokenHash: Buffer,
  now: Date,
): Promise<UsableApiKey | undefined> {
  const [row] = await sql<UsableApiKey[]>`
    select k.id, k.name, k.role, k.created_by, k.created_at, k.last_used_at, k.revoked_at,
           u.name as creator_name, u.email as creator_email
    from api_keys k left join users u on u.id = k.created_by
    where k.token_hash = ${tokenHash} and k.revoked_at is null
      -- A key acts for the person who made it: it stops working when they are deactivated.
      and (k.created_by is null or u.active)`;
  if (!row) return undefined;
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > 60_000) {
    await sql`update api_keys set last_used_at = ${now} where id = ${row.id}`;
    row.last_used_at = now;
  }
  return row;
}

export async function revokeApiKey(sql: Queryable, id: string, now: Date): Promise<boolean> {
  const result = await sql`
    update api_keys set revoked_at = ${now} where id = ${id} and revoked_at is null`;
  return result.count > 0;
}
