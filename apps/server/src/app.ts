import { type ApiDeps, addApiRoutes, addWebUi } from '@firebreak/api';
import { addChatRoutes } from '@firebreak/chat';
import type { Config } from '@firebreak/config';
import { addHealthRoutes, createBaseApp, type HttpApp } from '@firebreak/http';
import { addIngestRoutes } from '@firebreak/ingest';

/**
 * Every route of every app on one Hono app (the embedded default, docs/api.md#processes). Each app adds its
 * own routes through the same function it uses when it runs alone, so both shapes serve the same API;
 * each also describes them in this app's OpenAPI registry, so `/api/v1/openapi.json` here covers all.
 */
export function createServerApp(deps: ApiDeps & { config: Config }): HttpApp {
  const app = createBaseApp(deps.ctx);
  addHealthRoutes(app, deps.ready);
  addApiRoutes(app, deps);
  addIngestRoutes(app, deps);
  addChatRoutes(app, deps);
  // Last: the web UI answers only what no route above did.
  if (deps.webRoot) addWebUi(app, deps.webRoot);
  return app;
}
