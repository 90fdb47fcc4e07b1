import {
  addHealthRoutes,
  createBaseApp,
  type HttpApp,
  limitBody,
  WEBHOOK_BODY_LIMIT_BYTES,
} from '@firebreak/http';
import type { IngestDeps } from './deps';
import { failFastWhileDatabaseDown, IntakeGate } from './intake';
import { addCloudMonitorRoute } from './routes/cloud-monitor';
import { addGenericWebhookRoutes } from './routes/generic';
import { addMonitoringWebhookRoutes } from './routes/monitoring';

export type { IngestDeps } from './deps';

/**
 * The alert webhooks: no bearer token, never rate limited, 1 MiB bodies. Each route is described in the
 * OpenAPI document of the app it is added to, from the definition beside it.
 */
export function addIngestRoutes(app: HttpApp, deps: IngestDeps): void {
  // Enough concurrent batches to keep every pooled connection busy; beyond that, 503.
  const gate = new IntakeGate(deps.config.dbMaxOpenConns * 4);
  app.use('/api/v1/webhooks/*', limitBody(WEBHOOK_BODY_LIMIT_BYTES));
  app.post('/api/v1/webhooks/*', failFastWhileDatabaseDown(deps.ctx));
  addGenericWebhookRoutes(app, deps, gate);
  addMonitoringWebhookRoutes(app, deps, gate);
  addCloudMonitorRoute(app, deps, gate);
}

/** The ingest gateway alone. */
export function createApp(deps: IngestDeps): HttpApp {
  const app = createBaseApp(deps.ctx);
  addHealthRoutes(app, deps.ready);
  addIngestRoutes(app, deps);
  return app;
}
