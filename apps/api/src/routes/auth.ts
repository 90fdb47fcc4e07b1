import { clientAddress, type Operations, presentedToken, principalOf, SESSION_COOKIE } from '@firebreak/http';
import { assertPasswordLoginAllowed, login, logout, setupPassword } from '@firebreak/services';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { ApiDeps } from '../deps';
import { authOperations as op } from '../operations/auth';

export function addAuthRoutes(ops: Operations, deps: ApiDeps): void {
  const secureCookie = deps.config.publicUrl?.startsWith('https://') ?? false;

  ops.add(op.login, async (c, { body }) => {
    // PASSWORD_LOGIN=false: only the break-glass admin (docs/sso.md#break-glass-admin).
    await assertPasswordLoginAllowed(deps.ctx, body.email, deps.config.passwordLogin);
    const result = await login(deps.ctx, body, clientAddress(c, deps.config.trustProxy));
    setCookie(c, SESSION_COOKIE, result.token, {
      httpOnly: true,
      sameSite: 'Lax',
      secure: secureCookie,
      path: '/',
      expires: result.expiresAt,
    });
    return c.json({ token: result.token, user: result.user, expires_at: result.expiresAt.toISOString() });
  });

  ops.add(op.logout, async (c) => {
    const principal = principalOf(c);
    const token = presentedToken(c);
    if (principal.kind === 'session' && token) await logout(deps.ctx, token);
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.body(null, 204);
  });

  ops.add(op.me, (c) => {
    const principal = principalOf(c);
    return c.json({ kind: principal.kind, role: principal.role, user: principal.user });
  });

  // Public: the imported user has no password to log in with yet; the setup token is the credential.
  ops.add(op.setup, async (c, { body }) => c.json({ user: await setupPassword(deps.ctx, body) }));
}
