import type { Queryable } from './client';

/**
 * Secret calendar URLs (docs/schedules.md#calendar-feeds): one per user or per schedule. Only the
 * token's SHA-256 digest is stored and looked up by equality, as for sessions and API keys.
 */

export type FeedOwner = { userId: string } | { scheduleId: string };

export interface CalendarFeedRow {
  id: string;
  user_id: string | null;
  schedule_id: string | null;
  token_hint: string;
  created_by: string | null;
  created_at: Date;
}

const ownerColumns = (owner: FeedOwner) =>
  'userId' in owner
    ? { user_id: owner.userId, schedule_id: null }
    : { user_id: null, schedule_id: owner.scheduleId };

/**
 * Replaces the owner's feed, if any, in one statement: the old URL stops working as the new one starts,
 * and two requests at once leave one feed, not an error.
 */
export async function replaceFeed(
  sql: Queryable,
  feed: { owner: FeedOwner; tokenDigest: Buffer; tokenHint: string; createdBy: string | null; at: Date },
): Promise<CalendarFeedRow> {
  const [row] = await sql<CalendarFeedRow[]>`
    insert into calendar_feeds ${sql({
      ...ownerColumns(feed.owner),
      token_digest: feed.tokenDigest,
      token_hint: feed.tokenHint,
      created_by: feed.createdBy,
      created_at: feed.at,
    } as never)}
    on conflict (${sql('userId' in feed.owner ? 'user_id' : 'schedule_id')}) do update set
      token_digest = excluded.token_digest, token_hint = excluded.token_hint,
      created_by = excluded.created_by, created_at = excluded.created_at
    returning id, user_id, schedule_id, token_hint, created_by, created_at`;
  return row!;
}

export async function deleteFeed(sql: Queryable, owner: FeedOwner): Promise<CalendarFeedRow | undefined> {
  const [row] = await sql<CalendarFeedRow[]>`
    delete from calendar_feeds
    where ${'userId' in owner ? sql`user_id = ${owner.userId}` : sql`schedule_id = ${owner.scheduleId}`}
    returning id, user_id, schedule_id, token_hint, created_by, created_at`;
  return row;
}

export async function findFeedByDigest(sql: Queryable, digest: Buffer): Promise<CalendarFeedRow | undefined> {
  const [row] = await sql<CalendarFeedRow[]>`
    select id, user_id, schedule_id, token_hint, created_by, created_at
    from calendar_feeds where token_digest = ${digest}`;
  return row;
}
