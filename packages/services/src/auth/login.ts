import { sessions, users } from '@firebreak/db';
import { AppError, type LoginInput, type User } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { decoyPasswordHash, verifyPassword } from './passwords';
import { presentUser } from './present';
import { generateToken, hashToken } from './tokens';

/** Sessions last a working week; logging out ends one at once. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface LoginResult {
  token: string;
  user: User;
  expiresAt: Date;
}

export async function login(ctx: ServiceContext, input: LoginInput): Promise<LoginResult> {
  const user = await users.findUserByEmail(ctx.sql, input.email);
  const hash = user?.password_hash ?? (await decoyPasswordHash());
  const passwordMatches = await verifyPassword(input.password, hash);
  if (!user?.active || !user.password_hash || !passwordMatches) {
    throw new AppError('unauthorized', 'E-mail or password is wrong.');
  }
  const token = generateToken('session');
  const expiresAt = new Date(ctx.now().getTime() + SESSION_TTL_MS);
  await sessions.insertSession(ctx.sql, { userId: user.id, tokenHash: hashToken(token), expiresAt });
  ctx.logger.info({ user_id: user.id }, 'login');
  return { token, user: presentUser(user), expiresAt };
}

export async function logout(ctx: ServiceContext, token: string): Promise<void> {
  await sessions.deleteSession(ctx.sql, hashToken(token));
}
