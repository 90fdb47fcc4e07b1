import { roleAllows } from '@firebreak/domain';
import { AppError, type Role } from '@firebreak/schema';
import { authenticate, type Principal, type ServiceContext } from '@firebreak/services';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppEnv } from './env';

export const SESSION_COOKIE = 'firebreak_session';

/** The token a request presents: `Authorization: Bearer …` first, else the session cookie. */
export function presentedToken(c: Context): string | undefined {
  const header = c.req.header('authorization');
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match?.[1];
  }
  return getCookie(c, SESSION_COOKIE);
}

/**
 * The header the web UI sets on its polling requests (`X-Firebreak-Background: 1`): they authenticate as
 * usual but do not keep the session from going idle, since nobody is necessarily at the screen.
 */
export const BACKGROUND_HEADER = 'x-firebreak-background';

export function isBackgroundRequest(c: Context): boolean {
  return c.req.header(BACKGROUND_HEADER) === '1';
}

export type RequireRole = (role: Role) => MiddlewareHandler<AppEnv>;

/**
 * `requireRole('member')` on a route: 401 without a valid token, 403 when the role is too low
 * (docs/api.md#roles). Every protected route names its role explicitly, so a route without a guard is
 * visible in review, and the route-table test catches one that slipped through.
 */
export function createRequireRole(ctx: ServiceContext): RequireRole {
  return (role) => async (c, next) => {
    const principal = c.get('principal') ?? (await resolvePrincipal(ctx, c));
    if (!roleAllows(principal.role, role)) {
      throw new AppError('forbidden', `This action needs the ${role} role; you have ${principal.role}.`);
    }
    await next();
  };
}

async function resolvePrincipal(ctx: ServiceContext, c: Context<AppEnv>): Promise<Principal> {
  const token = presentedToken(c);
  if (!token) throw new AppError('unauthorized', 'Log in, or send Authorization: Bearer <token>.');
  const principal = await authenticate(ctx, token, isBackgroundRequest(c));
  if (!principal) throw new AppError('unauthorized', 'The token is not valid: expired, revoked or unknown.');
  c.set('principal', principal);
  c.set('logger', c.get('logger').child({ actor: principal.user?.id ?? principal.apiKeyId }));
  return principal;
}

/** The principal of a route guarded by `requireRole`. */
export function principalOf(c: Context<AppEnv>): Principal {
  const principal = c.get('principal');
  if (!principal) throw new AppError('unauthorized', 'Not authenticated.');
  return principal;
}
