import {
  addHealthRoutes,
  addMetricsRoute,
  createBaseApp,
  createOperations,
  createRateLimit,
  createRequireRole,
  type HttpApp,
  limitApiBody,
} from '@firebreak/http';
import { createCsrfGuard } from './csrf';
import { answerAtOnceWhileDatabaseDown } from './database-gate';
import type { ApiDeps } from './deps';
import { addAiRoutes } from './routes/ai';
import { addAlertRoutes } from './routes/alerts';
import { addAnalyticsRoutes } from './routes/analytics';
import { addApiKeyRoutes } from './routes/api-keys';
import { addAttachmentRoutes, attachmentOwnBodyLimits } from './routes/attachments';
import { addAuditLogRoutes } from './routes/audit-log';
import { addAuthRoutes } from './routes/auth';
import { addCalendarRoutes } from './routes/calendar';
import { addEscalationPolicyRoutes } from './routes/escalation-policies';
import { addImportRoutes } from './routes/imports';
import { addIncidentRoutes } from './routes/incidents';
import { addIntegrationRoutes } from './routes/integrations';
import { addMaintenanceWindowRoutes } from './routes/maintenance-windows';
import { addOidcRoutes } from './routes/oidc';
import { addOutgoingWebhookRoutes } from './routes/outgoing-webhooks';
import { addPageLinkRoutes } from './routes/page-link';
import { addPagingRoutes } from './routes/paging';
import { addTwilioRoutes } from './routes/paging-twilio';
import { addPostmortemRoutes } from './routes/postmortems';
import { addReferenceRoutes } from './routes/reference';
import { addRoutingRuleRoutes } from './routes/routing-rules';
import { addScheduleRoutes } from './routes/schedules';
import { addSettingsRoutes } from './routes/settings';
import { addStatusPageRoutes } from './routes/status-page';
import { addTelegramRoutes } from './routes/telegram';
import { addUserRoutes } from './routes/users';
import { addWebUi } from './web-ui';

export type { ApiDeps } from './deps';
export { addWebUi } from './web-ui';

/**
 * The incident API's routes: `/api/v1/*` except webhooks and chat, and `/metrics`. Each operation is
 * defined once under `operations/` and registered here with its guard, so the OpenAPI document lists
 * exactly what is served.
 */
export function addApiRoutes(app: HttpApp, deps: ApiDeps): void {
  const ops = createOperations(app, createRequireRole(deps.ctx));
  app.use('/api/v1/*', answerAtOnceWhileDatabaseDown(deps.ctx));
  app.use(
    '/api/v1/*',
    createRateLimit({
      ctx: deps.ctx,
      redis: deps.ctx.redis,
      keyPrefix: deps.ctx.redisPrefix,
      requestsPerMinute: deps.config.rateLimitPerMinute,
      trustProxy: deps.config.trustProxy,
    }),
  );
  app.use('/api/v1/*', limitApiBody(attachmentOwnBodyLimits));
  app.use('/api/v1/*', createCsrfGuard(deps.config.publicUrl));
  addReferenceRoutes(app);
  addAuthRoutes(ops, deps);
  addOidcRoutes(ops, deps);
  addApiKeyRoutes(ops, deps);
  addIncidentRoutes(ops, deps);
  addUserRoutes(ops, deps);
  addPagingRoutes(ops, deps);
  addPageLinkRoutes(app, deps);
  addScheduleRoutes(ops, deps);
  addCalendarRoutes(ops, deps);
  addEscalationPolicyRoutes(ops, deps);
  addAlertRoutes(ops, deps);
  addAiRoutes(ops, deps);
  addPostmortemRoutes(ops, deps);
  addAttachmentRoutes(ops, deps);
  addRoutingRuleRoutes(ops, deps);
  addMaintenanceWindowRoutes(ops, deps);
  addIntegrationRoutes(ops, deps);
  addSettingsRoutes(ops, deps);
  addTelegramRoutes(ops, deps);
  addStatusPageRoutes(ops, app, deps);
  addImportRoutes(ops, deps);
  addOutgoingWebhookRoutes(ops, deps);
  addAuditLogRoutes(ops, deps);
  addAnalyticsRoutes(ops, deps);
  addTwilioRoutes(app, deps);
  addMetricsRoute(app, deps.ctx.metrics, deps.config.metricsToken);
}

export function createApp(deps: ApiDeps): HttpApp {
  const app = createBaseApp(deps.ctx);
  addHealthRoutes(app, deps.ready);
  addApiRoutes(app, deps);
  // Last: the UI answers only what no route above did.
  if (deps.webRoot) addWebUi(app, deps.webRoot);
  return app;
}
