import { changeOriginOf, type Operations } from '@firebreak/http';
import {
  createRoutingRule,
  deleteRoutingRule,
  getRoutingRule,
  listRoutingRules,
  previewRouting,
  updateRoutingRule,
} from '@firebreak/services';
import type { ApiDeps } from '../deps';
import { routingRuleOperations as op } from '../operations/routing';

/** Rules are configuration: admins write, everyone reads. */
export function addRoutingRuleRoutes(ops: Operations, deps: ApiDeps): void {
  const { ctx } = deps;
  ops.add(op.list, async (c) => c.json({ routing_rules: await listRoutingRules(ctx) }));
  ops.add(op.create, async (c, { body }) =>
    c.json(await createRoutingRule(ctx, body, changeOriginOf(c)), 201),
  );
  ops.add(op.preview, async (c, { body }) => c.json(await previewRouting(ctx, body)));
  ops.add(op.get, async (c, { params }) => c.json(await getRoutingRule(ctx, params.id)));
  ops.add(op.update, async (c, { params, body }) =>
    c.json(await updateRoutingRule(ctx, params.id, body, changeOriginOf(c))),
  );
  ops.add(op.remove, async (c, { params }) => {
    await deleteRoutingRule(ctx, params.id, changeOriginOf(c));
    return c.body(null, 204);
  });
}
