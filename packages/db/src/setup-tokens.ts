import type { Queryable } from './client';

/**
 * Setup tokens of imported users (migration 0006): stored as digests, used once, valid until
 * `expires_at`. The caller hashes; nothing here sees a token in clear.
 */

export interface NewSetupToken {
  userId: string;
  tokenHash: Buffer;
  createdAt: Date;
  expiresAt: Date;
}

export async function insertSetupTokens(sql: Queryable, tokens: NewSetupToken[]): Promise<void> {
  if (tokens.length === 0) return;
  await sql`insert into setup_tokens ${sql(
    tokens.map((token) => ({
      token_hash: token.tokenHash,
      user_id: token.userId,
      created_at: token.createdAt,
      expires_at: token.expiresAt,
    })) as never,
  )}`;
}

/**
 * Uses up the token: deletes it and answers whose it was, or nothing when it is unknown, used or
 * expired. A delete rather than a read, so two requests with the same token cannot both succeed.
 */
export async function claimSetupToken(
  sql: Queryable,
  tokenHash: Buffer,
  now: Date,
): Promise<{ user_id: string } | undefined> {
  const [row] = await sql<{ user_id: string }[]>`
    delete from setup_tokens where token_hash = ${tokenHash} and expires_at > ${now}
    returning user_id`;
  return row;
}

/** Once a user has a password, their other pending tokens are moot. */
export async function deleteSetupTokensOfUser(sql: Queryable, userId: string): Promise<void> {
  await sql`delete from setup_tokens where user_id = ${userId}`;
}

export async function deleteExpiredSetupTokens(sql: Queryable, now: Date): Promise<number> {
  const result = await sql`delete from setup_tokens where expires_at <= ${now}`;
  return result.count;
}

/**
 * Whether the token is live and its user active, without using it up: checked before the new password
 * is hashed, so a made-up token costs the server no hashing.
 */
export async function isUsableSetupToken(sql: Queryable, tokenHash: Buffer, now: Date): Promise<boolean> {
  const [row] = await sql`
    select 1 from setup_tokens t join users u on u.id = t.user_id
    where t.token_hash = ${tokenHash} and t.expires_at > ${now} and u.active`;
  return row !== undefined;
}
