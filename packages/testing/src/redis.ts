import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { testRedisUrl } from './env';

/** A key prefix of this test file's own on the shared Redis, e.g. `fbt:1a2b3c4d:`. */
export function createTestRedisPrefix(): string {
  return `fbt:${randomBytes(4).toString('hex')}:`;
}

/** Deletes every key under `prefix` on the shared Redis (the test's own keys, nobody else's). */
export async function deleteRedisKeys(prefix: string, url: string = testRedisUrl): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', () => {}); // connect() rejects with the same error
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}
