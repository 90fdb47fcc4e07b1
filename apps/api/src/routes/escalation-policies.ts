import { changeOriginOf, type Operations } from '@firebreak/http';
import {
  createEscalationPolicy,
  deleteEscalationPolicy,
  getEscalationPolicy,
  listEscalationPolicies,
  updateEscalationPolicy,
} from '@firebreak/services';
import type { ApiDeps } from '../deps';
import { escalationPolicyOperations as op } from '../operations/oncall';

/** Admins change escalation policies; members and viewers read them. */
export function addEscalationPolicyRoutes(ops: Operations, deps: ApiDeps): void {
  const { ctx } = deps;
  ops.add(op.list, async (c) => c.json({ escalation_policies: await listEscalationPolicies(ctx) }));
  ops.add(op.create, async (c, { body }) =>
    c.json(await createEscalationPolicy(ctx, body, changeOriginOf(c)), 201),
  );
  ops.add(op.get, async (c, { params }) => c.json(await getEscalationPolicy(ctx, params.id)));
  ops.add(op.update, async (c, { params, body }) =>
    c.json(await updateEscalationPolicy(ctx, params.id, body, changeOriginOf(c))),
  );
  ops.add(op.remove, async (c, { params }) => {
    await deleteEscalationPolicy(ctx, params.id, changeOriginOf(c));
    return c.body(null, 204);
  });
}
