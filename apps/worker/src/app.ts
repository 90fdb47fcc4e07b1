import { type AppEnv, addHealthRoutes, addMetricsRoute, createBaseApp } from '@firebreak/http';
import type { Hono } from 'hono';
import type { WorkerDeps } from './deps';

export type { WorkerDeps } from './deps';

/** The worker app alone: queue consumers, timers and the reconciler. */
export function createApp(deps: WorkerDeps): Hono<AppEnv> {
  const app = createBaseApp(deps.ctx);
  addHealthRoutes(app, deps.ready);
  // The worker's own numbers (escalations fired, job failures, queue depths) for Prometheus.
  addMetricsRoute(app, deps.ctx.metrics, deps.metricsToken);
  return app;
}

export { type RunningWorker, startWorker } from './worker';
