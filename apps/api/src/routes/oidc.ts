import { type Operations, SESSION_COOKIE } from '@firebreak/http';
import { AppError } from '@firebreak/schema';
import { OidcSignIn } from '@firebreak/services';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { ApiDeps } from '../deps';
import { oidcOperations as op } from '../operations/oidc';

export const OIDC_CALLBACK_PATH = '/api/v1/auth/oidc/callback';
const STATE_COOKIE = 'firebreak_oidc_state';
// Sent only to the two SSO routes, and only until the sign-in expires.
const STATE_COOKIE_PATH = '/api/v1/auth/oidc';

/** The SSO routes and the login page's configuration (docs/sso.md). Without OIDC_* they answer 404. */
export function addOidcRoutes(ops: Operations, deps: ApiDeps): void {
  const { oidc, publicUrl, passwordLogin } = deps.config;
  const secureCookie = publicUrl?.startsWith('https://') ?? false;
  // PUBLIC_URL is required with OIDC_ISSUER_URL (packages/config), so both are set together here.
  const base = publicUrl?.replace(/\/+$/, '') ?? '';
  const redirectUrl = `${base}${OIDC_CALLBACK_PATH}`;
  const signIn = oidc ? new OidcSignIn({ ...oidc, redirectUrl }) : undefined;

  ops.add(op.config, (c) =>
    c.json({
      sso_enabled: signIn !== undefined,
      sso_login_url: signIn ? '/api/v1/auth/oidc/login' : null,
      password_login: passwordLogin,
    }),
  );

  const configured = () => {
    if (!signIn) throw new AppError('not_found', 'Single sign-on is not configured.');
    return signIn;
  };

  ops.add(op.login, async (c) => {
    const { authorizationUrl, state } = await configured().begin(deps.ctx);
    setCookie(c, STATE_COOKIE, state, {
      httpOnly: true,
      // Lax: the provider's redirect back is a top-level navigation from another site.
      sameSite: 'Lax',
      secure: secureCookie,
      path: STATE_COOKIE_PATH,
      maxAge: 10 * 60,
    });
    return c.redirect(authorizationUrl, 302);
  });

  ops.add(op.callback, async (c) => {
    const service = configured();
    // The registered redirect URL, not the request's own: behind a proxy the two differ, and the code
    // exchange must name the URL the provider redirected to.
    const callbackUrl = new URL(redirectUrl);
    callbackUrl.search = new URL(c.req.url).search;
    const cookieState = getCookie(c, STATE_COOKIE);
    deleteCookie(c, STATE_COOKIE, { path: STATE_COOKIE_PATH });
    const result = await service.finish(deps.ctx, callbackUrl, cookieState);
    setCookie(c, SESSION_COOKIE, result.token, {
      httpOnly: true,
      sameSite: 'Lax',
      secure: secureCookie,
      path: '/',
      expires: result.expiresAt,
    });
    return c.redirect(`${base}/`, 302);
  });
}
