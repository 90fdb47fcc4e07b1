import { once } from 'node:events';
import { createChatClient } from '@firebreak/chat-client';
import { createRedis, type Redis } from '@firebreak/queue';
import {
  captureLogs,
  createTestRedisPrefix,
  deleteRedisKeys,
  type FakeChatApi,
  startFakeChatApi,
  testRedisUrl,
} from '@firebreak/testing';
import type { WebClient } from '@slack/web-api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MethodPausedError } from './errors';
import { ChatPauses } from './rate-limit-pauses';

let fake: FakeChatApi;
let redis: Redis;
const prefix = createTestRedisPrefix();
const logs = captureLogs();
const ctx = { redis: undefined as unknown as Redis, redisPrefix: prefix, logger: logs.logger };

beforeAll(async () => {
  fake = await startFakeChatApi();
  redis = createRedis({ url: testRedisUrl }, 'command');
  // A command client refuses commands until it is connected.
  if (redis.status !== 'ready') await once(redis, 'ready');
  ctx.redis = redis;
});

afterEach(async () => {
  await deleteRedisKeys(prefix);
  logs.lines.length = 0;
});

afterAll(async () => {
  redis.disconnect();
  await fake.close();
});

const clientOf = (pauses: ChatPauses): WebClient =>
  pauses.gate(createChatClient({ botToken: fake.botToken, apiUrl: fake.url, signingSecret: undefined })!);
const calls = (method: string) => fake.callsTo(method).length;
const lines = (msg: string) => logs.lines.filter((l) => l.msg === msg);

describe('ChatPauses', () => {
  it('pauses a method for Retry-After in every process, without calling it, and logs start and end once', async () => {
    const one = clientOf(new ChatPauses(ctx));
    const other = clientOf(new ChatPauses(ctx)); // another process: nothing shared but Redis
    fake.rateLimit({ method: 'conversations.create', retryAfter: 1 });
    await expect(one.conversations.create({ name: 'paused-1' })).rejects.toMatchObject({ retryAfter: 1 });
    const before = calls('conversations.create');

    const paused = await other.conversations.create({ name: 'paused-2' }).catch((error: unknown) => error);
    expect(paused).toBeInstanceOf(MethodPausedError);
    expect(paused).toMatchObject({ method: 'conversations.create' });
    expect((paused as MethodPausedError).waitMs).toBeGreaterThan(500);
    await expect(one.apiCall('conversations.create', { name: 'paused-3' })).rejects.toBeInstanceOf(
      MethodPausedError,
    );
    expect(calls('conversations.create')).toBe(before);
    // Other methods are not paused.
    expect(
      (await other.conversations
        .info({ channel: 'nope' })
        .catch((e: { data?: unknown }) => e.data)) as object,
    ).toMatchObject({
      error: 'channel_not_found',
    });

    await new Promise((resolve) => setTimeout(resolve, 1000));
    await other.conversations.create({ name: 'after-1' });
    await one.conversations.create({ name: 'after-2' });
    expect(lines('slack: rate limited, calls paused: conversations.create')).toMatchObject([
      { method: 'conversations.create', retry_after_s: 1 },
    ]);
    expect(lines('slack: rate limit over, calls resumed: conversations.create')).toHaveLength(1);
  });

  it('pauses chat.postMessage per channel', async () => {
    const client = clientOf(new ChatPauses(ctx));
    const general = fake.addChannel({ name: `general-${Date.now()}` });
    const other = fake.addChannel({ name: `other-${Date.now()}` });
    fake.rateLimit({ method: 'chat.postMessage', retryAfter: 2 });
    await expect(client.chat.postMessage({ channel: general.id, text: 'a' })).rejects.toMatchObject({
      retryAfter: 2,
    });
    await expect(client.chat.postMessage({ channel: general.id, text: 'b' })).rejects.toBeInstanceOf(
      MethodPausedError,
    );
    expect((await client.chat.postMessage({ channel: other.id, text: 'c' })).ok).toBe(true);
    expect(lines('slack: rate limited, calls paused: chat.postMessage')).toMatchObject([
      { channel_id: general.id },
    ]);
  });

  it('lets calls through while Redis is unreachable', async () => {
    const down = createRedis({ url: 'redis://127.0.0.1:9' }, 'command');
    try {
      const client = clientOf(new ChatPauses({ ...ctx, redis: down }));
      fake.rateLimit({ method: 'conversations.rename', retryAfter: 30 });
      await expect(client.conversations.rename({ channel: 'C1', name: 'x' })).rejects.toMatchObject({
        retryAfter: 30,
      });
      expect((await client.auth.test()).ok).toBe(true);
    } finally {
      down.disconnect();
    }
  });
});
