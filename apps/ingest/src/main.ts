// The ingest gateway alone (split deployment), default port 8081 (docs/api.md#processes).
import { runApp } from '@firebreak/runtime';
import { scheduleOpenIntakeWarning } from '@firebreak/services';
import { createApp } from './app';

await runApp({
  name: 'ingest',
  defaultPort: 8081,
  build: (runtime) => {
    // Once per process: a fixed path that takes alerts from anyone is worth a line at every start.
    scheduleOpenIntakeWarning(runtime.ctx);
    return createApp({ ctx: runtime.ctx, ready: runtime.ready, config: runtime.config });
  },
});
