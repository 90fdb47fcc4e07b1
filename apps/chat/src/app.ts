import { type AppEnv, addHealthRoutes, createBaseApp } from '@firebreak/http';
import type { Hono } from 'hono';
import type { ChatDeps } from './deps';
import { addChatRoutes } from './inbound/routes';

export type { ChatDeps } from './deps';
export { addChatRoutes } from './inbound/routes';
export { type ChatWorkerOptions, type RunningChatWorker, startChatWorker } from './outbound/worker';

/** The chat app alone: chat inbound and outbound (/api/v1/chat/*). */
export function createApp(deps: ChatDeps): Hono<AppEnv> {
  const app = createBaseApp(deps.ctx);
  addHealthRoutes(app, deps.ready);
  addChatRoutes(app, deps);
  return app;
}
