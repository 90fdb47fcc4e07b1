import { type AppEnv, addHealthRoutes, createBaseApp } from '@firebreak/http';
import type { Hono } from 'hono';
import type { ChatDeps } from './deps';

export type { ChatDeps } from './deps';

/** The chat app alone: chat inbound and outbound (/api/v1/chat/*). */
export function createApp(deps: ChatDeps): Hono<AppEnv> {
  const app = createBaseApp(deps.ctx.logger);
  addHealthRoutes(app, deps.ready);
  return app;
}
