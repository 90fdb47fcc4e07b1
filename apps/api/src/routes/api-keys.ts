import { changeOriginOf, type Operations, principalOf } from '@firebreak/http';
import { createApiKey, listApiKeys, revokeApiKey } from '@firebreak/services';
import type { ApiDeps } from '../deps';
import { apiKeyOperations as op } from '../operations/auth';

/** API keys are credentials to the whole installation: only admins see or change them. */
export function addApiKeyRoutes(ops: Operations, deps: ApiDeps): void {
  ops.add(op.create, async (c, { body }) =>
    c.json(await createApiKey(deps.ctx, principalOf(c), body, changeOriginOf(c)), 201),
  );
  ops.add(op.list, async (c) => c.json({ api_keys: await listApiKeys(deps.ctx) }));
  ops.add(op.revoke, async (c, { params }) => {
    await revokeApiKey(deps.ctx, params.id, changeOriginOf(c));
    return c.body(null, 204);
  });
}
