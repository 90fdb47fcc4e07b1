import type { AppEnv } from '@firebreak/http';
import type { Hono } from 'hono';
import type { ApiDeps } from '../deps';

/** Prometheus text (CONTRACT.md §8). Unauthenticated, like most scrape targets; it holds no secrets. */
export function addMetricsRoute(app: Hono<AppEnv>, deps: ApiDeps): void {
  app.get('/metrics', async (c) => {
    const { registry } = deps.ctx.metrics;
    return c.body(await registry.metrics(), 200, { 'content-type': registry.contentType });
  });
}
