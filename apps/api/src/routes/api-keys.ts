import { type AppEnv, principalOf, type RequireRole, readJson } from '@firebreak/http';
import { CreateApiKeyInput } from '@firebreak/schema';
import { createApiKey, listApiKeys, revokeApiKey } from '@firebreak/services';
import type { Hono } from 'hono';
import type { ApiDeps } from '../deps';
import { uuidParam } from './params';

/** API keys are credentials to the whole installation: only admins see or change them. */
export function addApiKeyRoutes(app: Hono<AppEnv>, deps: ApiDeps, requireRole: RequireRole): void {
  app.post('/api/v1/api-keys', requireRole('admin'), async (c) => {
    const input = await readJson(c, CreateApiKeyInput);
    return c.json(await createApiKey(deps.ctx, principalOf(c), input), 201);
  });

  app.get('/api/v1/api-keys', requireRole('admin'), async (c) => {
    return c.json({ api_keys: await listApiKeys(deps.ctx) });
  });

  app.delete('/api/v1/api-keys/:id', requireRole('admin'), async (c) => {
    await revokeApiKey(deps.ctx, uuidParam(c, 'id'));
    return c.body(null, 204);
  });
}
