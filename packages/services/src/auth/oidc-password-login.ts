import { oidc } from '@firebreak/db';
import { AppError } from '@firebreak/schema';
import type { ServiceContext } from '../context';

/**
 * With `PASSWORD_LOGIN=false` only the break-glass admin may log in with a password: the admin the first
 * start created, recorded by its id (docs/sso.md#break-glass-admin). It is the way back in when
 * the identity provider is down or misconfigured, so it must not depend on it. Checked before the
 * password, so a refused person learns nothing about their password.
 */
export async function assertPasswordLoginAllowed(
  ctx: ServiceContext,
  email: string,
  passwordLogin: boolean,
): Promise<void> {
  if (passwordLogin) return;
  const user = await oidc.findBreakGlassUser(ctx.sql);
  const breakGlass = user?.role === 'admin' && user.email.toLowerCase() === email.trim().toLowerCase();
  if (!breakGlass) throw new AppError('forbidden', 'Password login is turned off: sign in with SSO.');
}
