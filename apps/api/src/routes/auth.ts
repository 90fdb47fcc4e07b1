import {
  type AppEnv,
  presentedToken,
  principalOf,
  type RequireRole,
  readJson,
  SESSION_COOKIE,
} from '@firebreak/http';
import { LoginInput } from '@firebreak/schema';
import { login, logout } from '@firebreak/services';
import type { Hono } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { ApiDeps } from '../deps';

export function addAuthRoutes(app: Hono<AppEnv>, deps: ApiDeps, requireRole: RequireRole): void {
  const secureCookie = deps.config.publicUrl?.startsWith('https://') ?? false;

  app.post('/api/v1/auth/login', async (c) => {
    const input = await readJson(c, LoginInput);
    const result = await login(deps.ctx, input);
    setCookie(c, SESSION_COOKIE, result.token, {
      httpOnly: true,
      sameSite: 'Lax',
      secure: secureCookie,
      path: '/',
      expires: result.expiresAt,
    });
    return c.json({ token: result.token, user: result.user, expires_at: result.expiresAt.toISOString() });
  });

  app.post('/api/v1/auth/logout', requireRole('viewer'), async (c) => {
    const principal = principalOf(c);
    const token = presentedToken(c);
    if (principal.kind === 'session' && token) await logout(deps.ctx, token);
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.body(null, 204);
  });

  app.get('/api/v1/auth/me', requireRole('viewer'), (c) => {
    const principal = principalOf(c);
    return c.json({ kind: principal.kind, role: principal.role, user: principal.user });
  });
}
