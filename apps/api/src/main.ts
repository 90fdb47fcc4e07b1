// The incident API alone (split deployment), default port 8082 (docs/api.md#processes).
import { resolve } from 'node:path';
import { runApp } from '@firebreak/runtime';
import { createApp } from './app';

// apps/web/dist, from src/ (tsx) and from dist/ (the bundle) alike.
const webRoot = resolve(import.meta.dirname, '../../web/dist');

await runApp({
  name: 'api',
  defaultPort: 8082,
  build: (runtime) => createApp({ ctx: runtime.ctx, ready: runtime.ready, config: runtime.config, webRoot }),
});
