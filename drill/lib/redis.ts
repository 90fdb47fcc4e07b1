import { Redis } from 'ioredis';

/** Runs `fn` with a short-lived client of the drill's own (the drill's checks, never the service's). */
export async function withRedis<T>(url: string, fn: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return await fn(redis);
  } finally {
    redis.disconnect();
  }
}

/** BullMQ keys of a Firebreak queue (`firebreak:q:<queue>:<state>`, docs/decisions.md "Queues"). */
export const queueKey = (
  queue: 'chat' | 'escalation' | 'ai' | 'notify',
  state: 'active' | 'delayed' | 'wait',
) => `firebreak:q:${queue}:${state}`;
