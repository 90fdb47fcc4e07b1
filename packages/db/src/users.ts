import type { Role } from '@firebreak/schema';
import type { Queryable } from './client';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  slack_user_id: string | null;
  auth_source: 'local' | 'chat';
  active: boolean;
  password_hash: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface InsertUser {
  email: string;
  name: string;
  role: Role;
  slackUserId?: string | null;
  authSource?: 'local' | 'chat';
  passwordHash?: string | null;
}

export async function insertUser(sql: Queryable, user: InsertUser): Promise<UserRow> {
  const [row] = await sql<UserRow[]>`
    insert into users (email, name, role, slack_user_id, auth_source, password_hash)
    values (${user.email}, ${user.name}, ${user.role}, ${user.slackUserId ?? null},
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
