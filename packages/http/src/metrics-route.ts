import { createHash, timingSafeEqual } from 'node:crypto';
import type { Metrics } from '@firebreak/metrics';
import { AppError } from '@firebreak/schema';
import type { Hono } from 'hono';
import type { AppEnv } from './env';

/**
 * `GET /metrics`, Prometheus text (docs/api.md#metrics). Open when no token is configured (a scrape on
 * the app's own port, which the shipped proxy examples do not expose); with `METRICS_TOKEN` set it
 * needs `Authorization: Bearer <token>`, which Prometheus sends with `authorization.credentials`.
 */
export function addMetricsRoute(app: Hono<AppEnv>, metrics: Metrics, token?: string): void {
  app.get('/metrics', async (c) => {
    if (token !== undefined && !bearerMatches(c.req.header('authorization'), token)) {
      c.header('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new AppError('unauthorized', 'The metrics need Authorization: Bearer <METRICS_TOKEN>.');
    }
    return c.body(await metrics.registry.metrics(), 200, { 'content-type': metrics.registry.contentType });
  });
}

/** Compares digests in constant time, so the answer's timing says nothing about the token's prefix. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  if (presented === undefined) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(token));
}
