import { changeOriginOf, type HttpApp, handleError, type Operations, principalOf } from '@firebreak/http';
import {
  actorFromPrincipal,
  createStatusComponent,
  deleteStatusComponent,
  listStatusComponents,
  listStatusUpdates,
  parseIncidentRef,
  publishStatusUpdate,
  readPublicStatus,
  updateStatusComponent,
} from '@firebreak/services';
import type { ApiDeps } from '../deps';
import { statusPageOperations as op } from '../operations/status-page';
import { renderStatusFeed } from '../status-page/feed';
import { renderStatusPage, renderStatusUnavailable } from '../status-page/html';
import { cachedSingleFlight } from '../status-page/single-flight';

/** Shared caches and browsers may keep the public answers this long (docs/status-page.md#caching). */
const PUBLIC_CACHE = 'public, max-age=30';
/**
 * Each process computes the public status at most this often, well within PUBLIC_CACHE: a crowd whose
 * requests miss every shared cache (query strings, no CDN) still costs one computation per 10 s.
 */
export const PUBLIC_STATUS_TTL_MS = 10_000;
/** What a reader's browser waits before asking again when there is no answer to give. */
const RETRY_AFTER_SECONDS = '30';
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/**
 * The status page (docs/status-page.md): its components and public updates under /api/v1, and the
 * public page itself at `/status` (HTML, no script) and `/status/feed.atom`, which the API app serves
 * before the web UI's fallback and the split deployment's proxy sends here like every path it does not
 * route elsewhere.
 */
export function addStatusPageRoutes(ops: Operations, app: HttpApp, deps: ApiDeps): void {
  const { ctx } = deps;
  const ref = (params: { id: string }) => parseIncidentRef(params.id);
  const publicStatus = cachedSingleFlight(() => readPublicStatus(ctx), {
    ttlMs: PUBLIC_STATUS_TTL_MS,
    now: () => ctx.now().getTime(),
  });

  ops.add(op.listComponents, async (c) => c.json({ components: await listStatusComponents(ctx) }));
  ops.add(op.createComponent, async (c, { body }) =>
    c.json(await createStatusComponent(ctx, body, changeOriginOf(c)), 201),
  );
  ops.add(op.updateComponent, async (c, { params, body }) =>
    c.json(await updateStatusComponent(ctx, params.id, body, changeOriginOf(c))),
  );
  ops.add(op.removeComponent, async (c, { params }) => {
    await deleteStatusComponent(ctx, params.id, changeOriginOf(c));
    return c.body(null, 204);
  });
  ops.add(op.listUpdates, async (c, { params }) => c.json(await listStatusUpdates(ctx, ref(params))));
  ops.add(op.publishUpdate, async (c, { params, body }) => {
    const principal = principalOf(c);
    const update = await publishStatusUpdate(
      ctx,
      actorFromPrincipal(principal),
      principal.user?.id ?? null,
      ref(params),
      body,
    );
    return c.json(update, 201);
  });
  ops.add(op.publicStatus, async (c) => {
    // Set only once there is an answer: an error must not be kept by caches for 30 s.
    const status = await publicStatus.get();
    c.header('cache-control', PUBLIC_CACHE);
    return c.json(status);
  });

  app.get('/status', async (c) => {
    c.header('content-security-policy', PAGE_CSP);
    c.header('x-content-type-options', 'nosniff');
    try {
      const page = await renderStatusPage(await publicStatus.get());
      c.header('cache-control', PUBLIC_CACHE);
      return c.html(page);
    } catch (error) {
      // The page matters most while things are broken, the database included: the last good answer,
      // said to be possibly out of date, beats an error page. Neither is kept by caches.
      // Reported as every route's error is (a database outage once per change of state, not once per
      // reader); its JSON answer is not used: readers get a page.
      handleError(error, c, ctx.failures);
      c.header('cache-control', 'no-store');
      const last = publicStatus.last();
      if (last) return c.html(await renderStatusPage(last.value, { stale: true }));
      c.header('retry-after', RETRY_AFTER_SECONDS);
      return c.html(await renderStatusUnavailable(), 503);
    }
  });
  app.get('/status/feed.atom', async (c) => {
    const feed = renderStatusFeed(await publicStatus.get(), publicBaseOf(deps.config));
    c.header('cache-control', PUBLIC_CACHE);
    c.header('x-content-type-options', 'nosniff');
    return c.body(feed, 200, { 'content-type': 'application/atom+xml; charset=utf-8' });
  });
}

/**
 * Only the configuration names the installation's address (PUBLIC_URL, else the one the server
 * announces at start): the Host header is the client's to choose, and a shared cache would hand a feed
 * with its links to everyone.
 */
function publicBaseOf(config: { publicUrl?: string | undefined; port?: number | undefined }): string {
  return (config.publicUrl ?? `http://localhost:${config.port ?? 8080}`).replace(/\/+$/, '');
}
