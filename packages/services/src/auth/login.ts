import { sessions, users } from '@firebreak/db';
import { AppError, type LoginInput, type User } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { clearLoginFailures, countLoginAttempt, loginKeys } from './login-backoff';
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

/**
 * `clientAddress`: the client as the rate limit sees it (`clientAddress` of @firebreak/http), which
 * keys the login backoff together with the e-mail address.
 */
export async function login(
  ctx: ServiceContext,
  input: LoginInput,
  clientAddress = 'unknown',
): Promise<LoginResult> {
  const keys = loginKeys(input.email, clientAddress);
  // Counted before the password is hashed: a refused guess costs the server no scrypt, and a burst of
  // concurrent guesses gets no more attempts than one after the other.
  await countLoginAttempt(ctx.sql, keys, ctx.now());
  const user = await users.findUserByEmail(ctx.sql, input.email);
  const hash = user?.password_hash ?? (await decoyPasswordHash());
  const passwordMatches = await verifyPassword(input.password, hash);
  if (!user?.active || !user.password_hash || !passwordMatches) {
    throw new AppError('unauthorized', 'E-mail or password is wrong.');
  }
  await clearLoginFailures(ctx.sql, keys);
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
