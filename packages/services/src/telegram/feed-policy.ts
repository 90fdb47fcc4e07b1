// What a feed message's send came to (docs/telegram.md#the-incident-feed). Pure: callers pass the clock.
import { type BotApiResult, isContentRefusal, migratedError } from './bot-api';

/** A message not sent within a day is old news: given up rather than told late. */
export const FEED_GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;
/** First retry after 1 s, twice as long each time, up to 5 minutes; Telegram's `retry_after` wins. */
export const FEED_FIRST_RETRY_MS = 1000;
export const FEED_MAX_RETRY_MS = 5 * 60_000;

/**
 * Telegram's limits for one chat (docs/telegram.md#limits): about one message a second, and 20 a minute
 * in a group. The feed paces itself to stay under them rather than drop anything.
 */
export function feedGapMs(chatId: string): number {
  return chatId.startsWith('-') ? 3000 : 1000;
}

/** Why the whole feed is stuck, in short stable words (the log line and Settings → Telegram). */
export type FeedFailureReason =
  | 'unauthorized'
  | 'chat_not_found'
  | 'chat_migrated'
  | 'forbidden'
  | 'bad_request'
  | 'server_error'
  | 'network';

export interface FeedVerdict {
  status: 'sent' | 'pending' | 'failed';
  error: string | null;
  nextAttemptAt: Date | null;
  /** The feed as a whole is failing for this reason (null: it works, or only this message failed). */
  failure: FeedFailureReason | null;
  /** A 429: Telegram asked us to wait (not a failure). */
  rateLimitedS?: number;
}

export function feedRetryDelayMs(attempts: number): number {
  return Math.min(FEED_FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), FEED_MAX_RETRY_MS);
}

/** Events older than this instant are given up (measured from the event, not from its capture). */
export function feedGiveUpBefore(now: Date): Date {
  return new Date(now.getTime() - FEED_GIVE_UP_AFTER_MS);
}

/**
 * A refusal of the bot or the chat (token refused, chat not found or upgraded to a supergroup, bot
 * removed from the group or without the right to post) holds every message back, with backoff, until
 * an admin fixes it: dropping them would lose the feed. Only a refusal of this message's content
 * (entities that do not parse, too long, empty, not UTF-8) fails it and lets the rest go.
 */
export function judgeFeedSend(result: BotApiResult<unknown>, attempts: number, now: Date): FeedVerdict {
  if (result.kind === 'ok') return { status: 'sent', error: null, nextAttemptAt: null, failure: null };
  const retry = (error: string, failure: FeedFailureReason | null, delayMs = feedRetryDelayMs(attempts)) => ({
    status: 'pending' as const,
    error,
    nextAttemptAt: new Date(now.getTime() + delayMs),
    failure,
  });
  if (result.kind === 'unreachable') return retry(`telegram unreachable: ${result.error}`, 'network');
  const error = `telegram ${result.status}: ${result.description}`;
  if (result.status === 429) {
    const seconds = Math.max(1, result.retryAfterS ?? 1);
    return { ...retry(error, null, seconds * 1000), rateLimitedS: seconds };
  }
  if (result.status === 401 || result.status === 404) return retry(error, 'unauthorized');
  if (result.status === 403) return retry(error, 'forbidden');
  if (result.status >= 500) return retry(error, 'server_error');
  if (result.migrateToChatId !== undefined)
    return retry(migratedError(result.status, result.description, result.migrateToChatId), 'chat_migrated');
  if (/chat not found/i.test(result.description)) return retry(error, 'chat_not_found');
  if (/not enough rights|have no rights/i.test(result.description)) return retry(error, 'forbidden');
  if (result.status === 400 && isContentRefusal(result.description))
    return { status: 'failed', error, nextAttemptAt: null, failure: null };
  return retry(error, 'bad_request');
}
