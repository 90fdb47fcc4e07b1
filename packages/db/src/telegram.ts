import type { Queryable, Sql } from './client';
import { withSessionAdvisoryLock } from './session-lock';

/** Settings → Telegram's rows (docs/telegram.md#configuration); the environment wins over both. */
export const telegramSettingKeys = {
  botToken: 'telegram_bot_token',
  feedChatId: 'telegram_feed_chat_id',
} as const;

export type TelegramFeedEvent = 'opened' | 'acknowledged' | 'resolved' | 'summary';

export interface TelegramFeedState {
  enabled_since: Date | null;
  last_sent_at: Date | null;
  failing_reason: string | null;
  failing_since: Date | null;
  last_error: string | null;
}

export async function readFeedState(sql: Queryable): Promise<TelegramFeedState> {
  const [row] = await sql<TelegramFeedState[]>`
    select enabled_since, last_sent_at, failing_reason, failing_since, last_error
    from telegram_feed_state where id = true`;
  return (
    row ?? {
      enabled_since: null,
      last_sent_at: null,
      failing_reason: null,
      failing_since: null,
      last_error: null,
    }
  );
}

/**
 * The feed is on from `at` (kept when it was on already): from then the timeline's trigger captures
 * the entries it tells of, in their own transactions (migration 0027); entries before are not told.
 */
export async function markFeedEnabled(sql: Queryable, at: Date): Promise<void> {
  await sql`
    update telegram_feed_state set enabled_since = ${at}, updated_at = now()
    where id = true and enabled_since is null`;
}

/**
 * The feed is off: nothing more is captured, and what waited is failed ("feed turned off"), so turning
 * it on again starts fresh rather than telling old news. Repeated on every pass while off, which also
 * fails a row captured by a transaction that read the feed as on just before it was turned off.
 */
export async function markFeedDisabled(sql: Queryable, at: Date): Promise<void> {
  await sql`
    update telegram_feed_state set enabled_since = null, updated_at = now()
    where id = true and enabled_since is not null`;
  await sql`
    update telegram_feed_messages set status = 'failed', last_error = 'feed turned off',
      next_attempt_at = ${at}
    where status in ('pending', 'sending')`;
}

/**
 * Gives up the messages whose event is older than `before` (the entry's own time, not the capture's):
 * old news would only confuse. Returns how many, so the caller logs one line for them all.
 */
export async function dropStaleFeedMessages(
  sql: Queryable,
  before: Date,
): Promise<{ count: number; oldest: Date | null }> {
  const [row] = await sql<{ count: number; oldest: Date | null }[]>`
    with dropped as (
      update telegram_feed_messages m set status = 'failed', last_error = 'gave up: not sent within 24 hours'
      from timeline_entries t
      where t.id = m.entry_id and m.status in ('pending', 'sending') and t.created_at < ${before}
      returning t.created_at
    )
    select count(*)::int as count, min(created_at) as oldest from dropped`;
  return row ?? { count: 0, oldest: null };
}

/** The oldest message not yet sent or given up, with what its text needs. */
export interface FeedHead {
  entry_id: string;
  incident_id: string;
  event: TelegramFeedEvent;
  status: 'pending' | 'sending';
  attempts: number;
  next_attempt_at: Date;
  /** When the event happened: the entry's time, which the 24-hour give-up and a late message's text use. */
  entry_created_at: Date;
  entry_data: Record<string, unknown>;
  actor_name: string | null;
  incident_number: number;
  incident_title: string;
  incident_severity: string;
}

export async function findFeedHead(sql: Queryable): Promise<FeedHead | undefined> {
  const [row] = await sql<FeedHead[]>`
    select m.entry_id, m.incident_id, m.event, m.status, m.attempts, m.next_attempt_at,
      t.created_at as entry_created_at, t.data as entry_data, t.actor_name,
      i.number as incident_number, i.title as incident_title, i.severity as incident_severity
    from telegram_feed_messages m
    join timeline_entries t on t.id = m.entry_id
    join incidents i on i.id = m.incident_id
    where m.status in ('pending', 'sending')
    order by m.entry_seq limit 1`;
  return row;
}

/** Committed before the request goes out: a crash after it leaves `sending`, the at-least-once edge. */
export async function markFeedSending(sql: Queryable, entryId: string): Promise<void> {
  await sql`
    update telegram_feed_messages set status = 'sending', attempts = attempts + 1
    where entry_id = ${entryId}`;
}

export async function recordFeedOutcome(
  sql: Queryable,
  entryId: string,
  outcome: {
    status: 'pending' | 'sent' | 'failed';
    messageId: number | null;
    error: string | null;
    nextAttemptAt: Date | null;
    at: Date;
  },
): Promise<void> {
  await sql`
    update telegram_feed_messages set
      status = ${outcome.status},
      message_id = coalesce(${outcome.messageId}, message_id),
      last_error = ${outcome.error},
      next_attempt_at = coalesce(${outcome.nextAttemptAt}, next_attempt_at),
      sent_at = case when ${outcome.status} = 'sent' then ${outcome.at}::timestamptz else sent_at end
    where entry_id = ${entryId}`;
  if (outcome.status === 'sent') {
    await sql`update telegram_feed_state set last_sent_at = ${outcome.at}, updated_at = now() where id = true`;
  }
}

/**
 * Records the feed's failure (null: working again); returns the reason it had before, so the caller
 * logs only a change. Called under the feed's lock, which is what keeps the read and the write together.
 */
export async function setFeedFailure(
  sql: Queryable,
  failure: { reason: string; error: string } | null,
  at: Date,
): Promise<string | null> {
  const before = (await readFeedState(sql)).failing_reason;
  const reason = failure?.reason ?? null;
  await sql`
    update telegram_feed_state set
      failing_reason = ${reason},
      last_error = ${failure?.error ?? null},
      failing_since = case when ${reason}::text is null then null
                           when failing_reason is null then ${at}::timestamptz
                           else failing_since end,
      updated_at = now()
    where id = true`;
  return before;
}

/** Messages still to send (the settings view). */
export async function countPendingFeedMessages(sql: Queryable): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    select count(*)::int as count from telegram_feed_messages where status in ('pending', 'sending')`;
  return row?.count ?? 0;
}

/**
 * Runs `work` holding the feed's lock, or returns undefined at once when another worker process holds
 * it: one sender at a time keeps the chat's messages in order and its pace within Telegram's limits.
 */
export function withFeedLock<T>(
  sql: Sql,
  work: (connection: Queryable) => Promise<T>,
): Promise<{ value: T } | undefined> {
  return withSessionAdvisoryLock(sql, ['telegram-feed'], work);
}
