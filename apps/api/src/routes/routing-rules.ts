import { type AppEnv, type RequireRole, readJson } from '@firebreak/http';
import { CreateRoutingRuleInput, RoutingPreviewInput, UpdateRoutingRuleInput } from '@firebreak/schema';
import {
  createRoutingRule,
  deleteRoutingRule,
  getRoutingRule,
  listRoutingRules,
  previewRouting,
  updateRoutingRule,
} from '@firebreak/services';
import type { Hono } from 'hono';
import type { ApiDeps } from '../deps';
import { uuidParam } from './params';

/** CONTRACT.md §6. Rules are configuration: admins write, everyone reads. */
export function addRoutingRuleRoutes(app: Hono<AppEnv>, deps: ApiDeps, requireRole: RequireRole): void {
  const { ctx } = deps;
  app.get('/api/v1/routing-rules', requireRole('viewer'), async (c) =>
    c.json({ routing_rules: await listRoutingRules(ctx) }),
  );
  app.post('/api/v1/routing-rules', requireRole('admin'), async (c) =>
    c.json(await createRoutingRule(ctx, await readJson(c, CreateRoutingRuleInput)), 201),
  );
  app.post('/api/v1/routing-rules/preview', requireRole('viewer'), async (c) =>
    c.json(await previewRouting(ctx, await readJson(c, RoutingPreviewInput))),
  );
  app.get('/api/v1/routing-rules/:id', requireRole('viewer'), async (c) =>
    c.json(await getRoutingRule(ctx, uuidParam(c, 'id'))),
  );
  app.patch('/api/v1/routing-rules/:id', requireRole('admin'), async (c) =>
    c.json(await updateRoutingRule(ctx, uuidParam(c, 'id'), await readJson(c, UpdateRoutingRuleInput))),
  );
  app.delete('/api/v1/routing-rules/:id', requireRole('admin'), async (c) => {
    await deleteRoutingRule(ctx, uuidParam(c, 'id'));
    return c.body(null, 204);
  });
}
