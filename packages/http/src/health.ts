import type { Readiness } from '@firebreak/schema';
import type { Hono } from 'hono';
import type { AppEnv } from './env';

/** `/health` and `/ready` exactly as docs/api.md#health says. `/health` never touches the database. */
export function addHealthRoutes(app: Hono<AppEnv>, ready: () => Promise<Readiness>): void {
  app.get('/health', (c) => c.json({ status: 'ok' }));
  app.get('/ready', async (c) => {
    const readiness = await ready();
    return c.json(readiness, readiness.database === 'ok' ? 200 : 503);
  });
}
