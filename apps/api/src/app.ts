import {
  API_BODY_LIMIT_BYTES,
  type AppEnv,
  addHealthRoutes,
  createBaseApp,
  createRequireRole,
  limitBody,
} from '@firebreak/http';
import type { Hono } from 'hono';
import type { ApiDeps } from './deps';
import { addApiKeyRoutes } from './routes/api-keys';
import { addAuthRoutes } from './routes/auth';

export type { ApiDeps } from './deps';

/** The incident API's routes (CONTRACT.md §1: `/api/v1/*` except webhooks and chat). */
export function addApiRoutes(app: Hono<AppEnv>, deps: ApiDeps): void {
  const requireRole = createRequireRole(deps.ctx);
  for (const path of ['/api/v1/auth/*', '/api/v1/api-keys', '/api/v1/api-keys/*']) {
    app.use(path, limitBody(API_BODY_LIMIT_BYTES));
  }
  addAuthRoutes(app, deps, requireRole);
  addApiKeyRoutes(app, deps, requireRole);
}

export function createApp(deps: ApiDeps): Hono<AppEnv> {
  const app = createBaseApp(deps.ctx.logger);
  addHealthRoutes(app, deps.ready);
  addApiRoutes(app, deps);
  return app;
}
