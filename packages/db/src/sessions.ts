import type { Queryable } from './client';
import type { UserRow } from './users';

export async function insertSession(
  sql: Queryable,
  session: { userId: string; tokenHash: Buffer; expiresAt: Date },
): Promise<{ id: string }> {
  const [row] = await sql<{ id: string }[]>`
    insert into sessions (user_id, token_hash, expires_at)
    values (${session.userId}, ${session.tokenHash}, ${session.expiresAt})
    returning id`;
  return row!;
}

/** The active user behind a live session token, or nothing. */
export async function findSessionUser(
  sql: Queryable,
  tokenHash: Buffer,
  now: Date,
): Promise<(UserRow & { session_id: string }) | undefined> {
  const [row] = await sql<(UserRow & { session_id: string })[]>`
    select u.*, s.id as session_id
    from sessions s join users u on u.id = s.user_id
    where s.token_hash = ${tokenHash} and s.expires_at > ${now} and u.active`;
  return row;
}

export async function deleteSession(sql: Queryable, tokenHash: Buffer): Promise<void> {
  await sql`delete from sessions where token_hash = ${tokenHash}`;
}

export async function deleteExpiredSessions(sql: Queryable, now: Date): Promise<number> {
  const result = await sql`delete from sessions where expires_at <= ${now}`;
  return result.count;
}
