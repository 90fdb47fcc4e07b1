import type { Queryable } from './client';

/** Retries of one event arrive within minutes; a day of ids is ample and keeps the table small. */
const KEEP_FOR = '1 day';

/**
 * Records an Events API delivery. True the first time an `event_id` is seen, false for Slack's
 * retries of it. Rows older than a day are pruned in the same statement, so no housekeeping job is
 * needed (the delete uses the `received_at` index and finds nothing most of the time).
 */
export async function claimChatEvent(sql: Queryable, eventId: string, at: Date): Promise<boolean> {
  const rows = await sql`
    with pruned as (
      delete from chat_events where received_at < ${at}::timestamptz - ${KEEP_FOR}::interval
    )
    insert into chat_events (event_id, received_at) values (${eventId}, ${at})
    on conflict (event_id) do nothing
    returning event_id`;
  return rows.length === 1;
}
