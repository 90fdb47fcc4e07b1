import { type AppEnv, readJson } from '@firebreak/http';
import { SetupPasswordInput } from '@firebreak/schema';
import { setupPassword } from '@firebreak/services';
import type { Hono } from 'hono';
import type { ApiDeps } from '../deps';

/**
 * `POST /api/v1/auth/setup` `{token, password}`: public (CONTRACT.md §3), since the imported user has
 * no password to log in with yet; the setup token is the credential. Answers the user, who then logs
 * in as usual.
 */
export function addSetupRoutes(app: Hono<AppEnv>, deps: ApiDeps): void {
  app.post('/api/v1/auth/setup', async (c) => {
    const input = await readJson(c, SetupPasswordInput);
    return c.json({ user: await setupPassword(deps.ctx, input) });
  });
}
