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
  key: { name: string; role: Role; tokenHash: Buffer; createdBy: string },
): Promise<ApiKeyRow> {
  const [row] = await sql<ApiKeyRow[]>`
    insert into api_keys (name, role, token_hash, created_by)
    values (${key.name}, ${key.role}, ${key.tokenHash}, ${key.createdBy})
    returning id, name, role, created_by, created_at, last_used_at, revoked_at`;
  return row!;
}

/** A key with the user who made it (null only for a revoked key whose creator was deleted). */
export interface ApiKeyWithCreator extends ApiKeyRow {
  creator_name: string | null;
  creator_email: string | null;
  creator_role: Role | null;
  creator_active: boolean | null;
}

export async function listActiveApiKeys(sql: Queryable): Promise<ApiKeyWithCreator[]> {
  return sql<ApiKeyWithCreator[]>`
    select k.id, k.name, k.role, k.created_by, k.created_at, k.last_used_at, k.revoked_at,
           u.name as creator_name, u.email as creator_email, u.role as creator_role,
           u.active as creator_active
    from api_keys k left join users u on u.id = k.created_by
    where k.revoked_at is null order by k.created_at, k.id`;
}

export async function findApiKey(sql: Queryable, id: string): Promise<ApiKeyWithCreator | undefined> {
  const [row] = await sql<ApiKeyWithCreator[]>`
    select k.id, k.name, k.role, k.created_by, k.created_at, k.last_used_at, k.revoked_at,
           u.name as creator_name, u.email as creator_email, u.role as creator_role,
           u.active as creator_active
    from api_keys k left join users u on u.id = k.created_by
    where k.id = ${id}`;
  return row;
}

/** A live key whose creator exists and is active, with that creator's current name, e-mail and role. */
export interface UsableApiKey extends ApiKeyRow {
  created_by: string;
  creator_name: string;
  creator_email: string;
  creator_role: Role;
}

/**
 * Finds a live key by its token digest, with its creator, in one query, and records the use.
 * A key acts for the person who made it, so it works only while that person exists and is active
 * (an inner join: a key whose creator was deleted, or never recorded, finds nothing).
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
           u.name as creator_name, u.email as creator_email, u.role as creator_role
    from api_keys k join users u on u.id = k.created_by
    where k.token_hash = ${tokenHash} and k.revoked_at is null and u.active`;
  if (!row) return undefined;
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > 60_000) {
    await sql`update api_keys set last_used_at = ${now} where id = ${row.id}`;
    row.last_used_at = now;
  }
  return row;
}

/** When a user is deleted: their keys are revoked with them (the rows stay, as for any revoked key). */
export async function revokeApiKeysOfUser(sql: Queryable, userId: string, now: Date): Promise<number> {
  const result = await sql`
    update api_keys set revoked_at = ${now} where created_by = ${userId} and revoked_at is null`;
  return result.count;
}

export async function revokeApiKey(sql: Queryable, id: string, now: Date): Promise<boolean> {
  const result = await sql`
    update api_keys set revoked_at = ${now} where id = ${id} and revoked_at is null`;
  return result.count > 0;
}
