import {
  type AppEnv,
  addHealthRoutes,
  createBaseApp,
  limitBody,
  WEBHOOK_BODY_LIMIT_BYTES,
} from '@firebreak/http';
import type { Hono } from 'hono';
import type { IngestDeps } from './deps';
import { failFastWhileDatabaseDown, IntakeGate } from './intake';
import { addCloudMonitorRoute } from './routes/cloud-monitor';
import { addGenericWebhookRoutes } from './routes/generic';
import { addMonitoringWebhookRoutes } from './routes/monitoring';

export type { IngestDeps } from './deps';

/** The alert webhooks (CONTRACT.md §1 and §6): no bearer token, never rate limited, 1 MiB bodies. */
export function addIngestRoutes(app: Hono<AppEnv>, deps: IngestDeps): void {
  // Enough concurrent batches to keep every pooled connection busy; beyond that, 503.
  const gate = new IntakeGate(deps.config.dbMaxOpenConns * 4);
  app.use('/api/v1/webhooks/*', limitBody(WEBHOOK_BODY_LIMIT_BYTES));
  app.post('/api/v1/webhooks/*', failFastWhileDatabaseDown(deps.ctx));
  addGenericWebhookRoutes(app, deps, gate);
  addMonitoringWebhookRoutes(app, deps, gate);
  addCloudMonitorRoute(app, deps, gate);
}

/** The ingest gateway alone. */
export function createApp(deps: IngestDeps): Hono<AppEnv> {
  const app = createBaseApp(deps.ctx);
  addHealthRoutes(app, deps.ready);
  addIngestRoutes(app, deps);
  return app;
}
