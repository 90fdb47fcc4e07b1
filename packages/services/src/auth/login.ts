import { sessions, users } from '@firebreak/db';
import { AppError, type LoginInput, type User } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { clearLoginFailures, emailDigest, recordLoginFailure, refuseWhileLocked } from './login-backoff';
import { decoyPasswordHash, verifyPassword } from './passwords';
import { presentUser } from './present';
import { generateToken, hashToken } from './tokens';

/**
 * Sessions last a working week at most, and end sooner after `SESSION_IDLE_TIMEOUT_MINUTES` without
 * use; logging out ends one at once.
 */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface LoginResult {
  token: string;
  user: User;
  expiresAt: Date;
}

export async function login(ctx: ServiceContext, input: LoginInput): Promise<LoginResult> {
  const digest = emailDigest(input.email);
  // Before the password is hashed: a refused guess costs the server no scrypt.
  await refuseWhileLocked(ctx.sql, digest, ctx.now());
  const user = await users.findUserByEmail(ctx.sql, input.email);
  const hash = user?.password_hash ?? (await decoyPasswordHash());
  const passwordMatches = await verifyPassword(input.password, hash);
  if (!user?.active || !user.password_hash || !passwordMatches) {
    await recordLoginFailure(ctx.sql, digest, ctx.now());
    throw new AppError('unauthorized', 'E-mail or password is wrong.');
  }
  await clearLoginFailures(ctx.sql, digest);
  const token = generateToken('session');
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await sessions.insertSession(ctx.sql, {
    userId: user.id,
    tokenHash: hashToken(token),
    expiresAt,
    createdAt: now,
  });
  ctx.logger.info({ user_id: user.id }, 'login');
  return { token, user: presentUser(user), expiresAt };
}

export async function logout(ctx: ServiceContext, token: string): Promise<void> {
  await sessions.deleteSession(ctx.sql, hashToken(token));
}
