import type { Queryable, users } from '@firebreak/db';

type UserRow = users.UserRow;

export async function findUserBySlackId(sql: Queryable, slackUserId: string): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`select * from users where slack_user_id = ${slackUserId}`;
  return row;
}

/**
 * Remembers a user's chat id after an e-mail match, so the next command needs no chat API call. A user
 * already linked to another chat id keeps it: the same person in a second workspace must not unlink
 * the first.
 */
export async function linkSlackUser(sql: Queryable, userId: string, slackUserId: string): Promise<boolean> {
  const result = await sql`
    update users set slack_user_id = ${slackUserId}, updated_at = now()
    where id = ${userId} and slack_user_id is null`;
  return result.count > 0;
}

/**
 * A `member` made from a chat profile (CONTRACT.md §7): no password, `auth_source` chat. Undefined
 * when a concurrent request created the same person first (either unique index: e-mail or chat id).
 */
export async function insertChatUser(
  sql: Queryable,
  user: { email: string; name: string; slackUserId: string },
): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`
    insert into users (email, name, role, slack_user_id, auth_source, password_hash)
    values (${user.email}, ${user.name}, 'member', ${user.slackUserId}, 'chat', null)
    on conflict do nothing
    returning *`;
  return row;
}
