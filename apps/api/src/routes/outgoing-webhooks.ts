import { changeOriginOf, type Operations } from '@firebreak/http';
import {
  createOutgoingWebhook,
  deleteOutgoingWebhook,
  listOutgoingWebhooks,
  listWebhookDeliveries,
  updateOutgoingWebhook,
} from '@firebreak/services';
import type { ApiDeps } from '../deps';
import { outgoingWebhookOperations as op } from '../operations/outgoing-webhooks';

/** Admins register URLs that receive incident events, and read what each delivery came to. */
export function addOutgoingWebhookRoutes(ops: Operations, deps: ApiDeps): void {
  const { ctx } = deps;
  ops.add(op.list, async (c) => c.json({ outgoing_webhooks: await listOutgoingWebhooks(ctx) }));
  ops.add(op.create, async (c, { body }) =>
    c.json(await createOutgoingWebhook(ctx, body, changeOriginOf(c)), 201),
  );
  ops.add(op.update, async (c, { params, body }) =>
    c.json(await updateOutgoingWebhook(ctx, params.id, body, changeOriginOf(c))),
  );
  ops.add(op.remove, async (c, { params }) => {
    await deleteOutgoingWebhook(ctx, params.id, changeOriginOf(c));
    return c.body(null, 204);
  });
  ops.add(op.deliveries, async (c, { params, query }) =>
    c.json({ deliveries: await listWebhookDeliveries(ctx, params.id, query.limit) }),
  );
}
