// The chat app alone (split deployment): CONTRACT.md §1, default port 8083.
import { runApp } from '@firebreak/runtime';
import { createApp } from './app';

await runApp({
  name: 'chat',
  defaultPort: 8083,
  build: (runtime) => createApp({ ctx: runtime.ctx, ready: runtime.ready, config: runtime.config }),
});
