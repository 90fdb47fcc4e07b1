import { type ApiDeps, addApiRoutes, addWebUi } from '@firebreak/api';
import { addChatRoutes } from '@firebreak/chat';
import type { Config } from '@firebreak/config';
import { addHealthRoutes, createBaseApp, type HttpApp } from '@firebreak/http';
import { addIngestRoutes } from '@firebreak/ingest';
import { countRequestsByProcess } from './cluster/requests-by-process';

export interface ServerAppDeps extends ApiDeps {
  config: Config;
  /** One of several HTTP processes (HTTP_PROCESSES above 1): its slot, which labels its request count. */
  httpProcess?: string;
}

/**
 * Every route of every app on one Hono app (the embedded default, docs/api.md#processes). Each app adds its
 * own routes through the same function it uses when it runs alone, so both shapes serve the same API;
 * each also describes them in this app's OpenAPI registry, so `/api/v1/openapi.json` here covers all.
 */
export function createServerApp(deps: ServerAppDeps): HttpApp {
  const app = createBaseApp(deps.ctx);
  // First, so that it counts every request, whichever route answers it.
  if (deps.httpProcess) countRequestsByProcess(app, deps.ctx.metrics, deps.httpProcess);
  addHealthRoutes(app, deps.ready);
  addApiRoutes(app, deps);
  addIngestRoutes(app, deps);
  addChatRoutes(app, deps);
  // Last: the web UI answers only what no route above did.
  if (deps.webRoot) addWebUi(app, deps.webRoot);
  return app;
}
