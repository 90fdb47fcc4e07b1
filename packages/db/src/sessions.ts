import type { Queryable } from './client';
import type { UserRow } from './users';

export async function insertSession(
  sql: Queryable,
  session: { userId: string; tokenHash: Buffer; expiresAt: Date; createdAt: Date },
): Promise<{ id: string }> {
  // Created by the service's clock, not the database's, so the idle timeout counts from the same now.
  const [row] = await sql<{ id: string }[]>`
    insert into sessions (user_id, token_hash, expires_at, created_at, last_used_at)
    values (${session.userId}, ${session.tokenHash}, ${session.expiresAt}, ${session.createdAt},
            ${session.createdAt})
    returning id`;
  return row!;
}

/**
 * The active user behind a live session token, or nothing. A session is live until `expires_at` and
 * while it was used within `idleTimeoutMs`. Each use pushes the idle deadline on, but `last_used_at` is
 * only written when it is more than a minute old, so a busy browser does not turn every request into
 * a row update (the idle timeout is therefore exact to within a minute). `touch: false` (a background
 * poll of an open console) reads without pushing the deadline: otherwise a console left open would
 * never go idle.
 */
export async function findSessionUser(
  sql: Queryable,
  tokenHash: Buffer,
  now: Date,
  idleTimeoutMs: number,
  touch = true,
): Promise<(UserRow & { session_id: string }) | undefined> {
  const idleSince = new Date(now.getTime() - idleTimeoutMs);
  const [row] = await sql<(UserRow & { session_id: string; session_last_used_at: Date })[]>`
    select u.*, s.id as session_id, s.last_used_at as session_last_used_at
    from sessions s join users u on u.id = s.user_id
    where s.token_hash = ${tokenHash} and s.expires_at > ${now} and s.last_used_at > ${idleSince}
      and u.active`;
  if (!row) return undefined;
  if (touch && now.getTime() - row.session_last_used_at.getTime() > 60_000) {
    await sql`update sessions set last_used_at = ${now} where id = ${row.session_id}`;
  }
  const { session_last_used_at: _, ...user } = row;
  return user;
}

export async function deleteSession(sql: Queryable, tokenHash: Buffer): Promise<void> {
  await sql`delete from sessions where token_hash = ${tokenHash}`;
}

/** Sessions past `expires_at` or idle for longer than `idleTimeoutMs`. */
export async function deleteExpiredSessions(
  sql: Queryable,
  now: Date,
  idleTimeoutMs: number,
): Promise<number> {
  const idleSince = new Date(now.getTime() - idleTimeoutMs);
  const result = await sql`
    delete from sessions where expires_at <= ${now} or last_used_at <= ${idleSince}`;
  return result.count;
}
