import { type AppEnv, changeOriginOf, type Operations, principalOf } from '@firebreak/http';
import {
  createIntegration,
  deleteIntegration,
  getIntegration,
  type IntegrationAudience,
  listIntegrations,
  rotateIntegrationKey,
  updateIntegration,
} from '@firebreak/services';
import type { Context } from 'hono';
import type { ApiDeps } from '../deps';
import { integrationOperations as op } from '../operations/integrations';

/** Integrations are configuration: admins write and see keys, everyone reads them masked. */
export function addIntegrationRoutes(ops: Operations, deps: ApiDeps): void {
  const { ctx } = deps;
  // Senders post to PUBLIC_URL; without one, to where this request reached us.
  const audience = (c: Context<AppEnv>): IntegrationAudience => ({
    revealKey: principalOf(c).role === 'admin',
    baseUrl: deps.config.publicUrl ?? new URL(c.req.url).origin,
  });
  ops.add(op.list, async (c) => c.json({ integrations: await listIntegrations(ctx, audience(c)) }));
  ops.add(op.create, async (c, { body }) =>
    c.json(await createIntegration(ctx, body, audience(c), changeOriginOf(c)), 201),
  );
  ops.add(op.get, async (c, { params }) => c.json(await getIntegration(ctx, params.id, audience(c))));
  ops.add(op.update, async (c, { params, body }) =>
    c.json(await updateIntegration(ctx, params.id, body, audience(c), changeOriginOf(c))),
  );
  ops.add(op.rotateKey, async (c, { params }) =>
    c.json(await rotateIntegrationKey(ctx, params.id, audience(c), changeOriginOf(c))),
  );
  ops.add(op.remove, async (c, { params }) => {
    await deleteIntegration(ctx, params.id, changeOriginOf(c));
    return c.body(null, 204);
  });
}
