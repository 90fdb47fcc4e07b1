import type { Metrics } from '@firebreak/metrics';
import type { Hono } from 'hono';
import type { AppEnv } from './env';

/** `GET /metrics`, Prometheus text (docs/api.md#metrics). Unauthenticated, like most scrape targets. */
export function addMetricsRoute(app: Hono<AppEnv>, metrics: Metrics): void {
  app.get('/metrics', async (c) =>
    c.body(await metrics.registry.metrics(), 200, { 'content-type': metrics.registry.contentType }),
  );
}
