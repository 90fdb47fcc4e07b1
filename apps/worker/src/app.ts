import { type AppEnv, addHealthRoutes, createBaseApp } from '@firebreak/http';
import type { Hono } from 'hono';
import type { WorkerDeps } from './deps';

export type { WorkerDeps } from './deps';

/** The worker app alone: queue consumers, timers and the reconciler. */
export function createApp(deps: WorkerDeps): Hono<AppEnv> {
  const app = createBaseApp(deps.ctx.logger);
  addHealthRoutes(app, deps.ready);
  return app;
}

export { type RunningWorker, startWorker } from './worker';
