import {
  addHealthRoutes,
  alertApiPaths,
  createBaseApp,
  type HttpApp,
  limitBody,
  WEBHOOK_BODY_LIMIT_BYTES,
} from '@firebreak/http';
import type { IngestDeps } from './deps';
import { failFastWhileDatabaseDown, IntakeGate } from './intake';
import { addCloudMonitorRoute } from './routes/cloud-monitor';
import { refuseWhileFixedPathsOff } from './routes/fixed-paths-switch';
import { addGenericWebhookRoutes } from './routes/generic';
import { addKeyedIntakeRoutes } from './routes/keyed-intake';
import { addMonitoringWebhookRoutes } from './routes/monitoring';
import { addOpsgenieAlertRoutes } from './routes/opsgenie-alerts';
import { addPagerDutyEventRoutes } from './routes/pagerduty-events';
import { SnsDelivery } from './routes/sns-delivery';

// The ingest routes' start-up check (a fixed path open to anyone is logged once per process), for the
// embedded server to call as the ingest app's own main.ts does.
export { scheduleOpenIntakeWarning } from '@firebreak/services';
export type { IngestDeps } from './deps';

/**
 * The alert webhooks, keyed intake (`/api/v1/intake/{key}`) and PagerDuty's and Opsgenie's alert APIs at
 * their own root paths: no bearer token, never rate limited, 1 MiB bodies. Each route is described in the
 * OpenAPI document of the app it is added to, from the definition beside it.
 */
export function addIngestRoutes(app: HttpApp, deps: IngestDeps): void {
  // Enough concurrent batches to keep every pooled connection busy; beyond that, 503.
  const gate = new IntakeGate(deps.config.dbMaxOpenConns * 4);
  const sns = new SnsDelivery(deps, gate);
  // Keyed intake (a heartbeat's ping may be a GET) gets the fixed paths' body limit and fast failure.
  for (const paths of ['/api/v1/webhooks/*', '/api/v1/intake/*'])
    app.use(paths, limitBody(WEBHOOK_BODY_LIMIT_BYTES));
  app.post('/api/v1/webhooks/*', failFastWhileDatabaseDown(deps.ctx));
  app.on(['GET', 'POST'], '/api/v1/intake/*', failFastWhileDatabaseDown(deps.ctx));
  app.post('/api/v1/webhooks/*', refuseWhileFixedPathsOff(deps.ctx));
  // PagerDuty's and Opsgenie's alert APIs at their own root paths: intake like the webhooks.
  for (const path of alertApiPaths) {
    app.use(path, limitBody(WEBHOOK_BODY_LIMIT_BYTES));
    app.on(['POST', 'PUT'], path, failFastWhileDatabaseDown(deps.ctx));
  }
  addGenericWebhookRoutes(app, deps, gate);
  addMonitoringWebhookRoutes(app, deps, gate);
  addCloudMonitorRoute(app, sns);
  addKeyedIntakeRoutes(app, deps, gate, sns);
  addPagerDutyEventRoutes(app, deps, gate);
  addOpsgenieAlertRoutes(app, deps, gate);
}

/** The ingest gateway alone. */
export function createApp(deps: IngestDeps): HttpApp {
  const app = createBaseApp(deps.ctx);
  addHealthRoutes(app, deps.ready);
  addIngestRoutes(app, deps);
  return app;
}
