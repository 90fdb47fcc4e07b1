// The ingest gateway alone (split deployment), default port 8081 (docs/api.md#processes).
import { runApp } from '@firebreak/runtime';
import { createApp } from './app';

await runApp({
  name: 'ingest',
  defaultPort: 8081,
  build: (runtime) => createApp({ ctx: runtime.ctx, ready: runtime.ready, config: runtime.config }),
});
