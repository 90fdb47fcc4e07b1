import {
  reportIfDatabaseUnavailable,
  runTelegramFeed,
  type SendTelegramMessage,
  type ServiceContext,
  type TelegramConfig,
} from '@firebreak/services';

export interface TelegramFeedOptions {
  intervalMs: number;
  telegram: TelegramConfig;
  /** `PUBLIC_URL`: the incident links start with it. */
  publicUrl: string;
  /** Tests may give their own sender. */
  send?: SendTelegramMessage;
}

export interface RunningTelegramFeed {
  /** One pass, awaited (tests; the timer does this by itself). */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The Telegram incident feed (docs/telegram.md#the-incident-feed): a pass every interval sends what
 * is due of the messages the timeline's trigger captured in PostgreSQL. No queue is involved, so a
 * Redis that is down or restarted empty delays and loses nothing; the messages wait in their rows.
 */
export function startTelegramFeed(ctx: ServiceContext, options: TelegramFeedOptions): RunningTelegramFeed {
  // The stop flag: checked by the pass before each send, so stop() ends it with no row left `sending`.
  const stopped = new AbortController();
  const feedOptions = {
    signal: stopped.signal,
    env: options.telegram,
    publicUrl: options.publicUrl.replace(/\/+$/, ''),
    ...(options.send ? { send: options.send } : {}),
  };
  let running: Promise<number> | undefined;
  const runOnce = () => {
    if (stopped.signal.aborted) return Promise.resolve(0);
    running ??= runTelegramFeed(ctx, feedOptions)
      .catch((error: Error) => {
        if (!reportIfDatabaseUnavailable(ctx, error))
          ctx.logger.warn({ err: error }, 'telegram feed pass failed');
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = setInterval(() => void runOnce(), options.intervalMs);
  return {
    runOnce,
    stop: async () => {
      clearInterval(timer);
      stopped.abort();
      await running;
    },
  };
}
