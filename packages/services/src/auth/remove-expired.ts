import { loginFailures, sessions, setupTokens } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { loginFailurePolicy } from './login-backoff';

/**
 * Deletes expired or idle login sessions, expired setup tokens and forgotten failed-login counts, so
 * the tables do not grow without bound, and logs what went. Idempotent: several workers may run it at
 * once.
 */
export async function removeExpiredCredentials(ctx: ServiceContext): Promise<void> {
  const removed = await sessions.deleteExpiredSessions(ctx.sql, ctx.now(), ctx.sessionIdleTimeoutMs);
  if (removed > 0) ctx.logger.info({ removed }, 'expired sessions removed');
  const tokens = await setupTokens.deleteExpiredSetupTokens(ctx.sql, ctx.now());
  if (tokens > 0) ctx.logger.info({ removed: tokens }, 'expired setup tokens removed');
  const forgetBefore = new Date(ctx.now().getTime() - loginFailurePolicy.forgetAfterMs);
  await loginFailures.deleteForgottenFailures(ctx.sql, forgetBefore, ctx.now());
}
