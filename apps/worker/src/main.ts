// The worker alone (split deployment): `/health` and `/ready` on port 8084 (docs/api.md#processes).
import { runApp } from '@firebreak/runtime';
import { createApp } from './app';
import { startWorker } from './worker';

await runApp({
  name: 'worker',
  defaultPort: 8084,
  build: async (runtime, shutdown) => {
    const worker = await startWorker(runtime.ctx, {
      redis: runtime.redisConfig,
      ai: runtime.config.ai,
      paging: runtime.config.paging,
      telegram: runtime.config.telegram,
      publicUrl: runtime.config.publicUrl ?? `http://localhost:${runtime.config.port ?? 8080}`,
    });
    shutdown.add('worker', () => worker.stop());
    return createApp({
      ctx: runtime.ctx,
      ready: runtime.ready,
      metricsToken: runtime.config.metricsToken,
    });
  },
});
