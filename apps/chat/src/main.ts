// The chat app alone (split deployment), default port 8083 (docs/api.md#processes).
import { runApp } from '@firebreak/runtime';
import { createApp, startChatWorker } from './app';

await runApp({
  name: 'chat',
  defaultPort: 8083,
  build: (runtime, shutdown) => {
    // The chat queue's consumer: channels, posts, the card, renames, escalation pages.
    const chatWorker = startChatWorker(runtime.ctx, {
      redis: runtime.redisConfig,
      chat: runtime.config.chat,
      teams: runtime.config.teams,
      publicUrl: runtime.config.publicUrl ?? `http://localhost:${runtime.config.port ?? 8083}`,
    });
    shutdown.add('chat worker', () => chatWorker.stop());
    return createApp({ ctx: runtime.ctx, ready: runtime.ready, config: runtime.config });
  },
});
