import type { Role } from '@firebreak/schema';
import type { Queryable } from './client';
import type { UserRow } from './users';

/**
 * Managing users (docs/api.md#on-call): listing, changing and deleting them, and finding the users a
 * schedule or an escalation tier names. Beside `users.ts` (what sign-in needs) rather than in it only
 * because that file had another owner when this was written; both are the users aggregate.
 */

export interface UserChanges {
  email?: string;
  name?: string;
  role?: Role;
  slack_user_id?: string | null;
  teams_user_id?: string | null;
  active?: boolean;
  password_hash?: string;
  shift_notices?: boolean;
}

/** By name, then e-mail: how people look for each other in a list. */
export async function listUsers(sql: Queryable): Promise<UserRow[]> {
  return sql<UserRow[]>`select * from users order by lower(name), lower(email), id`;
}

/** Locks the user for the rest of the transaction. */
export async function lockUser(sql: Queryable, id: string): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`select * from users where id = ${id} for update`;
  return row;
}

export async function updateUser(
  sql: Queryable,
  id: string,
  changes: UserChanges,
  at: Date,
): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`
    update users set ${sql({ ...changes, updated_at: at } as Record<string, unknown>)}
    where id = ${id}
    returning *`;
  return row;
}

export async function deleteUser(sql: Queryable, id: string): Promise<boolean> {
  const result = await sql`delete from users where id = ${id}`;
  return result.count > 0;
}

/**
 * Ids of the active admins, locked, so that two transactions that each remove "another" admin cannot
 * together remove the last one: the second waits, then sees the first one's change.
 */
export async function lockActiveAdmins(sql: Queryable): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select id from users where role = 'admin' and active order by id for update`;
  return rows.map((row) => row.id);
}

/**
 * Ends every session of a user: after a password change (sessions opened with the old password end)
 * and on deactivation (so that reactivating them does not bring old sessions back). Deleting a user
 * deletes their sessions by cascade.
 */
export async function deleteSessionsOfUser(sql: Queryable, userId: string): Promise<void> {
  await sql`delete from sessions where user_id = ${userId}`;
}

export interface UserRef {
  id: string;
  name: string;
}

/**
 * The users with these ids, locked against deletion until the transaction ends (a schedule or a tier
 * is about to reference them).
 */
export async function findUsersByIds(sql: Queryable, ids: string[]): Promise<UserRef[]> {
  if (ids.length === 0) return [];
  return sql<UserRef[]>`select id, name from users where id = any(${ids}::uuid[]) for key share`;
}

/**
 * The users whose display name matches one of `names` case-insensitively, locked like
 * `findUsersByIds`, each with the name it was wanted by (so the caller needs no case rules of its own).
 */
export async function findUsersByNames(
  sql: Queryable,
  names: string[],
): Promise<Array<UserRef & { wanted: string }>> {
  if (names.length === 0) return [];
  return sql<Array<UserRef & { wanted: string }>>`
    select u.id, u.name, w.wanted
    from users u join unnest(${names}::text[]) as w (wanted) on lower(u.name) = lower(w.wanted)
    order by u.id for key share of u`;
}
