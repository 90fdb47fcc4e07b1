// The ingest gateway alone (split deployment): CONTRACT.md §1, default port 8081.
import { runApp } from '@firebreak/runtime';
import { createApp } from './app';

await runApp({
  name: 'ingest',
  defaultPort: 8081,
  build: (runtime) => createApp({ ctx: runtime.ctx, ready: runtime.ready, config: runtime.config }),
});
