import { type AppEnv, addHealthRoutes, createBaseApp } from '@firebreak/http';
import type { Hono } from 'hono';
import type { IngestDeps } from './deps';

export type { IngestDeps } from './deps';

/** The ingest app alone: alert webhooks (/api/v1/webhooks/*). */
export function createApp(deps: IngestDeps): Hono<AppEnv> {
  const app = createBaseApp(deps.ctx.logger);
  addHealthRoutes(app, deps.ready);
  return app;
}
