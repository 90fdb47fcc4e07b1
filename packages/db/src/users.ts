import type { ChatPlatformName, Role } from '@firebreak/schema';
import type { Queryable } from './client';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  slack_user_id: string | null;
  /** Their Microsoft Entra object id, for Teams (docs/teams.md#people). */
  teams_user_id: string | null;
  auth_source: 'local' | 'chat' | 'oidc';
  active: boolean;
  /** Whether a chat message tells them when one of their shifts starts. */
  shift_notices: boolean;
  password_hash: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface InsertUser {
  email: string;
  name: string;
  role: Role;
  slackUserId?: string | null;
  teamsUserId?: string | null;
  authSource?: 'local' | 'chat';
  passwordHash?: string | null;
}

export async function insertUser(sql: Queryable, user: InsertUser): Promise<UserRow> {
  const [row] = await sql<UserRow[]>`
    insert into users (email, name, role, slack_user_id, teams_user_id, auth_source, password_hash)
    values (${user.email}, ${user.name}, ${user.role}, ${user.slackUserId ?? null}, ${user.teamsUserId ?? null},
            ${user.authSource ?? 'local'}, ${user.passwordHash ?? null})
    returning *`;
  return row!;
}

export async function findUserByEmail(sql: Queryable, email: string): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`select * from users where lower(email) = lower(${email})`;
  return row;
}

export async function findUserById(sql: Queryable, id: string): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`select * from users where id = ${id}`;
  return row;
}

export async function countUsers(sql: Queryable): Promise<number> {
  const [row] = await sql<{ count: number }[]>`select count(*)::int as count from users`;
  return row!.count;
}

/** The column that holds a person's id on each chat platform. */
const chatIdColumn = { slack: 'slack_user_id', teams: 'teams_user_id' } as const;

export async function findUserByChatId(
  sql: Queryable,
  platform: ChatPlatformName,
  chatUserId: string,
): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`
    select * from users where ${sql(chatIdColumn[platform])} = ${chatUserId}`;
  return row;
}

/**
 * Remembers a user's chat id after an e-mail match, so the next command needs no chat API call. A user
 * already linked to another chat id keeps it: the same person in a second workspace must not unlink
 * the first.
 */
export async function linkChatUser(
  sql: Queryable,
  platform: ChatPlatformName,
  userId: string,
  chatUserId: string,
): Promise<boolean> {
  const column = sql(chatIdColumn[platform]);
  const result = await sql`
    update users set ${column} = ${chatUserId}, updated_at = now()
    where id = ${userId} and ${column} is null`;
  return result.count > 0;
}

/**
 * A `member` made from a chat profile: no password, `auth_source` chat. Undefined when a concurrent
 * request created the same person first (either unique index: e-mail or chat id).
 */
export async function insertChatUser(
  sql: Queryable,
  user: { email: string; name: string; platform: ChatPlatformName; chatUserId: string; role: Role },
): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`
    insert into users (email, name, role, ${sql(chatIdColumn[user.platform])}, auth_source, password_hash)
    values (${user.email}, ${user.name}, ${user.role}, ${user.chatUserId}, 'chat', null)
    on conflict do nothing
    returning *`;
  return row;
}

export interface UserContact {
  id: string;
  name: string;
  slack_user_id: string | null;
  teams_user_id: string | null;
}

/** Name and chat ids of each of these users (those that still exist), in no particular order. */
export async function findUserContacts(sql: Queryable, ids: readonly string[]): Promise<UserContact[]> {
  if (ids.length === 0) return [];
  return sql<UserContact[]>`
    select id, name, slack_user_id, teams_user_id from users where id = any(${ids as string[]})`;
}

// Any constant; serialises first starts of several processes against one empty database.
const BOOTSTRAP_LOCK_KEY = 7_305_111_002;

/** Held until the transaction ends: only one process at a time decides whether to create the first admin. */
export async function lockFirstAdminCreation(sql: Queryable): Promise<void> {
  await sql`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK_KEY})`;
}
