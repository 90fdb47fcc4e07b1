import { setTimeout as sleep } from 'node:timers/promises';
import { type Queryable, telegram } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { type BotApiResult, callBotApi, type TelegramBot, type TelegramMessage } from './bot-api';
import { type FeedVerdict, feedGapMs, feedGiveUpBefore, judgeFeedSend } from './feed-policy';
import { feedMessageText } from './feed-text';
import { resolveTelegram, type TelegramConfig } from './resolve-config';

/** Sends one message to a chat; the Bot API by default, replaceable in tests. */
export type SendTelegramMessage = (
  bot: TelegramBot,
  chatId: string,
  html: string,
) => Promise<BotApiResult<TelegramMessage>>;

export const sendTelegramHtml: SendTelegramMessage = (bot, chatId, html) =>
  callBotApi<TelegramMessage>(bot, 'sendMessage', {
    chat_id: chatId,
    text: html,
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
  });

export interface FeedRunOptions {
  env: TelegramConfig;
  /** `PUBLIC_URL` without a trailing slash: the incident links start with it. */
  publicUrl: string;
  send?: SendTelegramMessage;
  /**
   * The worker is stopping: checked before each message is marked `sending`, and it cuts a pacing wait
   * short, so the pass ends at once with no row left `sending`. A request already out is awaited (its
   * outcome must be recorded), which the Bot API's own timeout bounds.
   */
  signal?: AbortSignal;
  /** A pass ends after this long even with messages left (default 10 s), so the lock is given back. */
  passBudgetMs?: number;
}

// One run sends at most this many, then gives the lock back; the next pass goes on.
const MAX_PER_RUN = 20;
// A pacing wait longer than this ends the run instead of holding the lock.
const MAX_WAIT_MS = 3000;
const PASS_BUDGET_MS = 10_000;

/**
 * One pass of the incident feed (docs/telegram.md#the-incident-feed): when a bot token and a feed chat
 * are in effect, send what is due, oldest first, paced for the chat, each outcome recorded before the
 * next send. The messages themselves are written by the timeline's trigger, in the transaction of each
 * entry (migration 0027); a pass only records whether the feed is on. Only one process sends at a time
 * (the feed's lock); the others return at once. Returns how many messages were sent.
 */
export async function runTelegramFeed(ctx: ServiceContext, options: FeedRunOptions): Promise<number> {
  const resolved = await resolveTelegram(ctx, options.env);
  if (!resolved.bot || !resolved.feedChatId) {
    await telegram.markFeedDisabled(ctx.sql, ctx.now());
    return 0;
  }
  const { bot, feedChatId: chatId } = resolved;
  const deadline = Date.now() + (options.passBudgetMs ?? PASS_BUDGET_MS);
  const stopping = () => options.signal?.aborted === true || Date.now() >= deadline;
  const locked = await telegram.withFeedLock(ctx.sql, async (connection) => {
    await telegram.markFeedEnabled(connection, ctx.now());
    await dropStale(ctx, connection);
    let sent = 0;
    for (let i = 0; i < MAX_PER_RUN && !stopping(); i += 1) {
      const step = await sendHead(ctx, connection, { bot, chatId, ...options }, stopping, deadline);
      if (step === 'stop') break;
      if (step === 'sent') sent += 1;
    }
    return sent;
  });
  return locked?.value ?? 0;
}

/** Old news is given up, with one line per pass however many (a storm's backlog is not a log storm). */
async function dropStale(ctx: ServiceContext, sql: Queryable): Promise<void> {
  const dropped = await telegram.dropStaleFeedMessages(sql, feedGiveUpBefore(ctx.now()));
  if (dropped.count > 0) {
    ctx.logger.warn(
      { count: dropped.count, oldest_event_at: dropped.oldest, error: 'gave up: not sent within 24 hours' },
      'telegram: feed messages dropped',
    );
  }
}

type Target = FeedRunOptions & { bot: TelegramBot; chatId: string };

async function sendHead(
  ctx: ServiceContext,
  sql: Queryable,
  target: Target,
  stopping: () => boolean,
  deadline: number,
): Promise<'sent' | 'next' | 'stop'> {
  const head = await telegram.findFeedHead(sql);
  if (!head) return 'stop';
  const now = ctx.now();
  if (head.next_attempt_at > now) return 'stop';
  const state = await telegram.readFeedState(sql);
  const wait = state.last_sent_at
    ? state.last_sent_at.getTime() + feedGapMs(target.chatId) - now.getTime()
    : 0;
  if (wait > MAX_WAIT_MS || Date.now() + Math.max(0, wait) >= deadline) return 'stop';
  if (wait > 0) await sleep(wait, undefined, { signal: target.signal }).catch(() => undefined);
  // Checked again after the wait, and before the row is marked: a stopping worker leaves it pending.
  if (stopping()) return 'stop';
  await telegram.markFeedSending(sql, head.entry_id);
  const send = target.send ?? sendTelegramHtml;
  const result = await send(target.bot, target.chatId, feedMessageText(head, target.publicUrl, ctx.now()));
  const verdict = judgeFeedSend(result, head.attempts + 1, ctx.now());
  await telegram.recordFeedOutcome(sql, head.entry_id, {
    status: verdict.status,
    messageId: result.kind === 'ok' ? result.result.message_id : null,
    error: verdict.error,
    nextAttemptAt: verdict.nextAttemptAt,
    at: ctx.now(),
  });
  await reportState(ctx, sql, head, verdict);
  if (verdict.status === 'sent') return 'sent';
  return verdict.status === 'failed' ? 'next' : 'stop';
}

/**
 * The feed's failure, logged once per change of state — when it starts failing, when the reason
 * changes, when it works again — not once per retry (docs/runbooks/telegram-failed.md). The state is a
 * row, so a restart or another worker process does not log the same failure again.
 */
async function reportState(
  ctx: ServiceContext,
  sql: Queryable,
  head: telegram.FeedHead,
  verdict: FeedVerdict,
): Promise<void> {
  const fields = { incident_id: head.incident_id, event: head.event, attempts: head.attempts + 1 };
  if (verdict.rateLimitedS !== undefined) {
    ctx.logger.warn(
      { ...fields, retry_after_s: verdict.rateLimitedS },
      'telegram: rate limited, feed paused',
    );
    return;
  }
  if (verdict.status === 'failed') {
    // One message refused for its content says nothing about the chat: a failure of the feed stays
    // as it is until a message is actually sent.
    ctx.logger.warn({ ...fields, error: verdict.error }, 'telegram: feed message refused');
    return;
  }
  if (verdict.status === 'pending' && verdict.failure === null) return;
  const failure = verdict.failure ? { reason: verdict.failure, error: verdict.error ?? '' } : null;
  const before = await telegram.setFeedFailure(sql, failure, ctx.now());
  if (failure && before !== failure.reason) {
    ctx.logger.error(
      { ...fields, reason: failure.reason, error: failure.error, next_attempt_at: verdict.nextAttemptAt },
      `telegram: feed failed: ${failure.reason}`,
    );
  } else if (!failure && before !== null) {
    ctx.logger.info({ after_reason: before }, 'telegram: feed sending again');
  }
}
