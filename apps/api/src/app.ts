import {
  type AppEnv,
  addHealthRoutes,
  addMetricsRoute,
  createBaseApp,
  createRateLimit,
  createRequireRole,
  limitApiBody,
} from '@firebreak/http';
import type { Hono } from 'hono';
import { createCsrfGuard } from './csrf';
import type { ApiDeps } from './deps';
import { addAiRoutes } from './routes/ai';
import { addAlertRoutes } from './routes/alerts';
import { addApiKeyRoutes } from './routes/api-keys';
import { addAuthRoutes } from './routes/auth';
import { addEscalationPolicyRoutes } from './routes/escalation-policies';
import { addImportRoutes } from './routes/imports';
import { addIncidentRoutes } from './routes/incidents';
import { addOpenApiRoute } from './routes/openapi';
import { addRoutingRuleRoutes } from './routes/routing-rules';
import { addScheduleRoutes } from './routes/schedules';
import { addSettingsRoutes } from './routes/settings';
import { addSetupRoutes } from './routes/setup';
import { addUserRoutes } from './routes/users';
import { addWebUi } from './web-ui';

export type { ApiDeps } from './deps';
export { addWebUi } from './web-ui';

/** The incident API's routes (CONTRACT.md §1: `/api/v1/*` except webhooks and chat, and `/metrics`). */
export function addApiRoutes(app: Hono<AppEnv>, deps: ApiDeps): void {
  const requireRole = createRequireRole(deps.ctx);
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
  app.use('/api/v1/*', limitApiBody());
  app.use('/api/v1/*', createCsrfGuard(deps.config.publicUrl));
  addOpenApiRoute(app);
  addAuthRoutes(app, deps, requireRole);
  addSetupRoutes(app, deps);
  addApiKeyRoutes(app, deps, requireRole);
  addIncidentRoutes(app, deps, requireRole);
  addUserRoutes(app, deps, requireRole);
  addScheduleRoutes(app, deps, requireRole);
  addEscalationPolicyRoutes(app, deps, requireRole);
  addAlertRoutes(app, deps, requireRole);
  addAiRoutes(app, deps, requireRole);
  addRoutingRuleRoutes(app, deps, requireRole);
  addSettingsRoutes(app, deps, requireRole);
  addImportRoutes(app, deps, requireRole);
  addMetricsRoute(app, deps.ctx.metrics);
}

export function createApp(deps: ApiDeps): Hono<AppEnv> {
  const app = createBaseApp(deps.ctx);
  addHealthRoutes(app, deps.ready);
  addApiRoutes(app, deps);
  // Last: the UI answers only what no route above did.
  if (deps.webRoot) addWebUi(app, deps.webRoot);
  return app;
}
