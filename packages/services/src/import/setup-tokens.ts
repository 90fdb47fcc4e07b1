import { randomBytes } from 'node:crypto';
import { type Queryable, setupTokens } from '@firebreak/db';
import { hashToken } from '../auth/tokens';

/**
 * Setup tokens (docs/api.md#authentication): 256 random bits with the prefix `fbp_` ("password"), so a leaked
 * one is recognisable, like `fbs_` sessions and `fbk_` API keys. Only the SHA-256 digest is stored. The
 * prefix is not one `authenticate` accepts, so a setup token can never be used as a bearer token.
 */

export const SETUP_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export function generateSetupToken(): string {
  return `fbp_${randomBytes(32).toString('base64url')}`;
}

/** One token per user, valid for 7 days from `now`; the tokens in clear are returned once, here. */
export async function issueSetupTokens(
  sql: Queryable,
  users: ReadonlyArray<{ id: string; email: string }>,
  now: Date,
): Promise<Map<string, string>> {
  const issued = users.map((user) => ({ user, token: generateSetupToken() }));
  await setupTokens.insertSetupTokens(
    sql,
    issued.map(({ user, token }) => ({
      userId: user.id,
      tokenHash: hashToken(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + SETUP_TOKEN_TTL_MS),
    })),
  );
  return new Map(issued.map(({ user, token }) => [user.email, token]));
}
