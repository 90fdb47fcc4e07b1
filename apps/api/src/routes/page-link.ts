import { type AppEnv, addRawOperation, type HttpApp } from '@firebreak/http';
import { AppError } from '@firebreak/schema';
import { acknowledgeFromPageLink, type PageAckResult, readPageLink } from '@firebreak/services';
import type { Context } from 'hono';
import type { ApiDeps } from '../deps';
import { pageLinkOperations as op } from '../operations/paging';
import { acknowledgedPage, invalidLinkPage, linkPage } from './page-link-html';

/**
 * The acknowledge link every page carries (docs/paging.md#acknowledge-links), served by the API app
 * under /api/v1/ so the split deployment routes it there like the rest of the API. The token is the
 * credential: no login, no cookie. GET only shows the incident and a button, because mail scanners
 * and link previews fetch every link of a message; only the button's POST acknowledges. The request
 * log shows only the token's first characters.
 */
export function addPageLinkRoutes(app: HttpApp, deps: ApiDeps): void {
  const { ctx } = deps;
  addRawOperation(app, op.view, async (c) => {
    const link = await readPageLink(ctx, c.req.param('token') ?? '');
    return link ? htmlAnswer(c, linkPage(link), 200) : htmlAnswer(c, invalidLinkPage(), 404);
  });
  addRawOperation(app, op.acknowledge, async (c) => {
    const via = c.req.query('via') === 'push' ? 'push' : 'link';
    const result = await acknowledgeFromPageLink(ctx, c.req.param('token') ?? '', via);
    if (wantsHtml(c)) {
      return result.outcome === 'invalid'
        ? htmlAnswer(c, invalidLinkPage(), 404)
        : htmlAnswer(c, acknowledgedPage(result), 200);
    }
    if (result.outcome === 'invalid') {
      throw new AppError('not_found', 'This acknowledge link has expired or is not valid.');
    }
    noStore(c);
    return c.json(jsonOf(result));
  });
}

/** A form's POST (the page's button) reads HTML back; the push notification's fetch reads JSON. */
function wantsHtml(c: Context<AppEnv>): boolean {
  return (
    (c.req.header('content-type') ?? '').startsWith('application/x-www-form-urlencoded') ||
    (c.req.header('accept') ?? '').includes('text/html')
  );
}

function jsonOf(result: Exclude<PageAckResult, { outcome: 'invalid' }>) {
  return result.outcome === 'already'
    ? { outcome: result.outcome, status: result.status, by: result.by, incident: result.incident }
    : { outcome: result.outcome, incident: result.incident };
}

/**
 * The link's page is not cached, never sends the token on as a Referer, is not indexed, and may load
 * nothing and post only to itself.
 */
function noStore(c: Context<AppEnv>): void {
  c.header('cache-control', 'no-store');
  c.header('referrer-policy', 'no-referrer');
  c.header('x-robots-tag', 'noindex');
}

function htmlAnswer(c: Context<AppEnv>, body: string, status: 200 | 404): Response {
  noStore(c);
  c.header(
    'content-security-policy',
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  );
  return c.html(body, status);
}
