import { type AppEnv, isApiPath, SESSION_COOKIE } from '@firebreak/http';
import { AppError } from '@firebreak/schema';
import { PAGE_LINK_PATH } from '@firebreak/services';
import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { csrf } from 'hono/csrf';
import { HTTPException } from 'hono/http-exception';

/**
 * Cross-site request forgery guard for the web UI's cookie (docs/decisions.md, "Web UI"). Writes with a
 * body are JSON (415 otherwise), which no HTML form can send, but for one: an attachment upload is
 * multipart/form-data, which a form can send, and this check is what refuses a forged one. The cookie
 * is SameSite=Lax; but a few writes take no body (logout, summary, post-mortem, chat test), and a sibling
 * subdomain counts as same-site. So a cookie-authenticated unsafe request with a form-like content type
 * must come from our own origin (or PUBLIC_URL's, behind a TLS-terminating proxy). Requests that carry
 * `Authorization` are scripts and API keys, which a browser never attaches on its own, and requests
 * without the session cookie carry nothing to forge: neither is checked. Nor is a page's acknowledge
 * link (docs/paging.md#acknowledge-links): its token is the credential and the session is not read
 * there, and its page's `Referrer-Policy: no-referrer` makes the browser send `Origin: null` with the
 * button's POST, which the check would refuse for anyone who happens to be signed in.
 */
export function createCsrfGuard(publicUrl: string | undefined): MiddlewareHandler<AppEnv> {
  const publicOrigin = publicUrl ? new URL(publicUrl).origin : undefined;
  const check = csrf({
    origin: (origin, c) => origin === new URL(c.req.url).origin || origin === publicOrigin,
  });
  return async (c, next) => {
    if (
      !isApiPath(c.req.path) ||
      c.req.path.startsWith(PAGE_LINK_PATH) ||
      c.req.header('authorization') ||
      !getCookie(c, SESSION_COOKIE)
    ) {
      return next();
    }
    let allowed = false;
    try {
      await check(c, async () => {
        allowed = true;
      });
    } catch (error) {
      if (!(error instanceof HTTPException && error.status === 403)) throw error;
    }
    if (!allowed) {
      throw new AppError('forbidden', 'Cross-site request refused: send it from the Firebreak UI itself.');
    }
    await next();
  };
}
