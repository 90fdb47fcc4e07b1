// The incident API alone (split deployment): CONTRACT.md §1, default port 8082.
import { runApp } from '@firebreak/runtime';
import { createApp } from './app';

await runApp({
  name: 'api',
  defaultPort: 8082,
  build: (runtime) => createApp({ ctx: runtime.ctx, ready: runtime.ready, config: runtime.config }),
});
