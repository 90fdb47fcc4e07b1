import { createJobQueues } from '@firebreak/queue';
import {
  recoverChatQuestions,
  recoverChatWork,
  reportIfDatabaseUnavailable,
  type ServiceContext,
} from '@firebreak/services';
import type { ChatPlatform } from '../platform/chat-platform';
import { OPENING_WINDOW_MS } from './flush';
import { CHANNEL_ENTRY_TYPES } from './messages';

export interface ChatRecoveryOptions {
  /** How often to look for lost chat work. */
  intervalMs?: number;
  /** How long work may wait on its own job before it counts as lost. */
  graceMs?: number;
}

export interface RunningChatRecovery {
  /** One pass now (tests; the timer and Redis coming back run it by themselves). Jobs asked for. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

// A chat job normally runs within a second of reaching the queue; one still owed after half a minute
// was lost (or is riding out a chat outage: then the recovery job is a harmless second, see
// docs/integrations/slack.md#recovery).
const GRACE_MS = 30_000;
const INTERVAL_MS = 15_000;
// Jobs lost to a Redis restart are minutes or hours old, not days; looking further back only costs.
const LOOK_BACK_MS = 2 * 24 * 60 * 60 * 1000;
const BATCH = 200;

/**
 * The chat reconciler (docs/integrations/slack.md#recovery): every `intervalMs`, and at once when
 * Redis comes back, re-queues the chat work PostgreSQL says is owed and no job is doing. It lives with
 * the chat queue's consumer because only chat knows which entries a channel hears, and it runs only
 * where chat is on.
 */
export function startChatRecovery(
  ctx: ServiceContext,
  platforms: readonly ChatPlatform[],
  options: ChatRecoveryOptions = {},
): RunningChatRecovery {
  const queues = createJobQueues(ctx.redis, ctx.redisPrefix);
  const rules = {
    platforms: platforms.map((p) => ({ platform: p.name, resolvedPrefix: p.channelNames.resolvedPrefix })),
    channelEntryTypes: CHANNEL_ENTRY_TYPES,
    graceMs: options.graceMs ?? GRACE_MS,
    openingWindowMs: OPENING_WINDOW_MS,
    lookBackMs: LOOK_BACK_MS,
    limit: BATCH,
  };
  let lastFound = 0;
  const pass = async () => {
    // Questions of the bot too (docs/chat.md#questions): an answer not yet posted, an AI answer pending.
    const found =
      (await recoverChatWork(ctx, queues, rules)) + (await recoverChatQuestions(ctx, queues, rules));
    // Once per episode, not once per pass: a job riding out a chat outage stays owed for minutes.
    if (found > 0 && lastFound === 0) {
      ctx.logger.info({ jobs: found }, 'chat: re-queued chat work the queue had lost');
    }
    lastFound = found;
    return found;
  };
  let running: Promise<number> | undefined;
  const runOnce = () => {
    running ??= pass()
      .catch((error: Error) => {
        // Redis or the database away: the failure log has said so; the next pass tries again.
        if (!reportIfDatabaseUnavailable(ctx, error) && !ctx.failures.failing('redis')) {
          ctx.logger.warn({ err: error }, 'chat recovery pass failed');
        }
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = setInterval(() => void runOnce(), options.intervalMs ?? INTERVAL_MS);
  // A Redis that restarted empty lost every queued chat job: look at once rather than at the next tick.
  const onRedisReady = () => void runOnce();
  ctx.redis.on('ready', onRedisReady);
  void runOnce();
  return {
    runOnce,
    stop: async () => {
      clearInterval(timer);
      ctx.redis.off('ready', onRedisReady);
      await running;
      await queues.close();
    },
  };
}
