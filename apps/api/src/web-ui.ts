import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AppEnv } from '@firebreak/http';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, Hono } from 'hono';

/** Paths that belong to the service, never to the UI: unknown ones stay a JSON 404 (docs/api.md#errors). */
function isServicePath(path: string): boolean {
  return (
    path === '/api' ||
    path.startsWith('/api/') ||
    path === '/health' ||
    path === '/ready' ||
    path === '/metrics'
  );
}

// Vite puts content-hashed files under /assets/: a new build has new names, so they never go stale.
const HASHED = 'public, max-age=31536000, immutable';
// index.html names the current hashes, so browsers must ask again every time.
const NOT_CACHED = 'no-cache';
const PAGE_HEADERS: Record<string, string> = {
  'Cache-Control': NOT_CACHED,
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
};

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Firebreak</title>
<h1>The web UI is not built</h1>
<p>The API is running. Build the UI with <code>pnpm --filter @firebreak/web build</code> and reload this page.</p>`;

/**
 * Serves the built web UI (`apps/web/dist`) at `/`: files as they are, and `index.html` for any other
 * GET that is not a service path, so the single-page app's own routes (`/incidents/42`) survive a reload.
 * The build is looked up per request, so building after start needs no restart.
 */
export function addWebUi(app: Hono<AppEnv>, webRoot: string): void {
  const indexFile = join(webRoot, 'index.html');
  const files = serveStatic({ root: webRoot });
  const index = serveStatic({ root: webRoot, path: 'index.html' });
  const nothing = async () => {};
  // serveStatic builds its Response before any callback runs, so the headers go on the answer itself.
  const withHeaders = (response: Response, headers: Record<string, string>) => {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  };

  app.get('*', async (c: Context<AppEnv>, next) => {
    if (isServicePath(c.req.path)) return next();
    if (!existsSync(indexFile)) return c.html(NOT_BUILT, 503, { 'Cache-Control': NOT_CACHED });
    const file = await files(c, nothing);
    if (file) {
      const hashed = c.req.path.startsWith('/assets/');
      return withHeaders(file, hashed ? { 'Cache-Control': HASHED } : PAGE_HEADERS);
    }
    // A missing hashed file is an old build's: answering index.html there would break as a script.
    if (c.req.path.startsWith('/assets/')) return next();
    const page = await index(c, nothing);
    return page ? withHeaders(page, PAGE_HEADERS) : next();
  });
}
