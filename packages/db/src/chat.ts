import type { Actor, ChatPlatformName, IncidentStatus, TimelineEntryType } from '@firebreak/schema';
import { entryPlatform, entryPlatformData } from './chat-entry-platform';

export { entryPlatformData } from './chat-entry-platform';

import type { Queryable } from './client';
import { nextTierColumn } from './escalation-next-tier';
import type { IncidentRow } from './incidents';
import { insertTimelineEntry } from './timeline';

/**
 * An incident as its channel on one chat platform shows it: the row, that platform's channel (from
 * `chat_channels`, all null before it opens), the commander's chat identity, the alert count.
 */
export interface ChatIncident extends IncidentRow {
  chat_channel_id: string | null;
  chat_channel_name: string | null;
  /** The incident card's message id on the platform (Slack's `ts`, a Teams activity id). */
  chat_card_ts: string | null;
  chat_card_digest: string | null;
  chat_topic: string | null;
  /** The name a channel creation asked for whose answer is not recorded yet (migration 0010). */
  chat_channel_creating: string | null;
  commander_name: string | null;
  commander_slack_user_id: string | null;
  commander_teams_user_id: string | null;
  alert_count: number;
  /** The tier the card's Escalate button pages (1-based); null when none is left. */
  next_tier: number | null;
}

export async function findChatIncident(
  sql: Queryable,
  id: string,
  platform: ChatPlatformName,
): Promise<ChatIncident | undefined> {
  const [row] = await sql<ChatIncident[]>`
    select i.*, c.channel_id as chat_channel_id, c.channel_name as chat_channel_name,
           c.card_id as chat_card_ts, c.card_digest as chat_card_digest, c.topic as chat_topic,
           c.creating as chat_channel_creating,
           u.name as commander_name, u.slack_user_id as commander_slack_user_id,
           u.teams_user_id as commander_teams_user_id,
           (select count(*)::int from alerts a where a.incident_id = i.id) as alert_count,
           ${nextTierColumn(sql)} as next_tier
    from incidents i
    left join users u on u.id = i.commander_id
    left join chat_channels c on c.incident_id = i.id and c.platform = ${platform}
    where i.id = ${id}`;
  return row;
}

/** What a chat command needs to know about the incident a channel belongs to. */
export interface ChannelIncident {
  id: string;
  number: number;
  title: string;
  status: IncidentStatus;
  commander_id: string | null;
}

/** The incident whose channel on `platform` this is (a channel belongs to one incident), if any. */
export async function findIncidentByChannel(
  sql: Queryable,
  platform: ChatPlatformName,
  channelId: string,
): Promise<ChannelIncident | undefined> {
  const [row] = await sql<ChannelIncident[]>`
    select i.id, i.number, i.title, i.status, i.commander_id
    from chat_channels c join incidents i on i.id = c.incident_id
    where c.platform = ${platform} and c.channel_id = ${channelId}`;
  return row;
}

/** Sets columns of the incident's channel row on `platform`, creating the row the first time. */
async function upsertChannel(
  sql: Queryable,
  incidentId: string,
  platform: ChatPlatformName,
  columns: Partial<Record<'channel_name' | 'creating' | 'card_id' | 'card_digest' | 'topic', string | null>>,
): Promise<void> {
  await sql`
    insert into chat_channels ${sql({ incident_id: incidentId, platform, ...columns })}
    on conflict (incident_id, platform) do update set ${sql(columns)}`;
}

/**
 * Stores the channel only if the incident has none yet on this platform (a conditional write), so two
 * jobs can never both give one incident a channel. Returns whether this call stored it.
 */
export async function claimChatChannel(
  sql: Queryable,
  id: string,
  platform: ChatPlatformName,
  channel: { id: string; name: string },
): Promise<boolean> {
  const result = await sql`
    insert into chat_channels (incident_id, platform, channel_id, channel_name)
    values (${id}, ${platform}, ${channel.id}, ${channel.name})
    on conflict (incident_id, platform) do update
    set channel_id = excluded.channel_id, channel_name = excluded.channel_name, creating = null
    where chat_channels.channel_id is null`;
  return result.count > 0;
}

/** Records the name about to be asked for, before asking (see migration 0010). */
export async function markChatChannelCreating(
  sql: Queryable,
  id: string,
  platform: ChatPlatformName,
  name: string,
): Promise<void> {
  await upsertChannel(sql, id, platform, { creating: name });
}

export async function setChatChannelName(
  sql: Queryable,
  id: string,
  platform: ChatPlatformName,
  name: string,
): Promise<void> {
  await upsertChannel(sql, id, platform, { channel_name: name });
}

export async function setChatCard(
  sql: Queryable,
  id: string,
  platform: ChatPlatformName,
  card: { ts?: string; digest: string },
) {
  await upsertChannel(sql, id, platform, {
    ...(card.ts ? { card_id: card.ts } : {}),
    card_digest: card.digest,
  });
}

export async function setChatTopic(
  sql: Queryable,
  id: string,
  platform: ChatPlatformName,
  topic: string,
): Promise<void> {
  await upsertChannel(sql, id, platform, { topic });
}

/** A timeline entry with what a chat message about it needs: the actor's and the commander's chat ids. */
export interface ChatEntry {
  id: string;
  seq: string;
  incident_id: string;
  type: TimelineEntryType;
  actor_type: Actor['type'];
  actor_name: string | null;
  actor_slack_user_id: string | null;
  commander_slack_user_id: string | null;
  data: Record<string, unknown>;
  created_at: Date;
}

const entryColumns = (sql: Queryable) => sql`
  t.id, t.seq, t.incident_id, t.type, t.actor_type, t.actor_name, t.data, t.created_at,
  au.slack_user_id as actor_slack_user_id, cu.slack_user_id as commander_slack_user_id`;

const entryJoins = (sql: Queryable) => sql`
  left join users au on au.id = t.actor_id
  left join users cu on t.type = 'commander_assigned' and cu.id::text = t.data -> 'commander' ->> 'id'`;

export async function findChatEntry(sql: Queryable, entryId: string): Promise<ChatEntry | undefined> {
  const [row] = await sql<ChatEntry[]>`
    select ${entryColumns(sql)} from timeline_entries t ${entryJoins(sql)} where t.id = ${entryId}`;
  return row;
}

/**
 * Entries of these types the platform's channel has not heard yet, up to `uptoSeq` (all when null), in
 * order.
 */
export async function listUnpostedEntries(
  sql: Queryable,
  incidentId: string,
  platform: ChatPlatformName,
  types: readonly TimelineEntryType[],
  uptoSeq: string | null,
): Promise<ChatEntry[]> {
  return sql<ChatEntry[]>`
    select ${entryColumns(sql)} from timeline_entries t ${entryJoins(sql)}
    where t.incident_id = ${incidentId} and t.type = any(${types as string[]})
      ${uptoSeq === null ? sql`` : sql`and t.seq <= ${uptoSeq}`}
      and not exists (select 1 from chat_posts p where p.entry_id = t.id and p.platform = ${platform})
    order by t.seq`;
}

export interface ChatPost {
  platform: ChatPlatformName;
  entryId: string;
  incidentId: string;
  channelId: string;
  /** Null when the post was refused for good. */
  messageTs: string | null;
  error?: string | null;
  at: Date;
}

export async function recordChatPost(sql: Queryable, post: ChatPost): Promise<void> {
  await sql`
    insert into chat_posts (platform, entry_id, incident_id, channel_id, message_ts, error, posted_at)
    values (${post.platform}, ${post.entryId}, ${post.incidentId}, ${post.channelId}, ${post.messageTs},
            ${post.error ?? null}, ${post.at})
    on conflict (entry_id, platform) do nothing`;
}

/**
 * The card stands for the entries written when the incident was opened (its creation and a commander
 * named then): they are recorded as posted with the card's `ts`, so they are not posted again.
 */
export async function recordCardPost(sql: Queryable, incident: IncidentRow, post: Omit<ChatPost, 'entryId'>) {
  await sql`
    insert into chat_posts (platform, entry_id, incident_id, channel_id, message_ts, posted_at)
    select ${post.platform}, id, incident_id, ${post.channelId}, ${post.messageTs}, ${post.at}
    from timeline_entries
    where incident_id = ${incident.id} and type in ('incident_created', 'commander_assigned')
      and created_at = ${incident.created_at}
    on conflict (entry_id, platform) do nothing`;
}

/** When the channel last received a post from us (pacing: one per second per channel). */
export async function lastChatPostAt(
  sql: Queryable,
  platform: ChatPlatformName,
  channelId: string,
): Promise<Date | undefined> {
  const [row] = await sql<{ posted_at: Date }[]>`
    select posted_at from chat_posts
    where channel_id = ${channelId} and platform = ${platform} and message_ts is not null
    order by posted_at desc limit 1`;
  return row?.posted_at;
}

export interface ChatFailure {
  platform: ChatPlatformName;
  operation: string;
  code: string;
}

/** Whether a `chat_failed` entry exists for this platform and operation (and code, when given). */
export async function hasChatFailure(
  sql: Queryable,
  incidentId: string,
  failure: { platform: ChatPlatformName; operation: string; code?: string },
): Promise<boolean> {
  const [row] = await sql`
    select 1 from timeline_entries f
    where f.incident_id = ${incidentId} and f.type = 'chat_failed'
      and f.data ->> 'operation' = ${failure.operation}
      and ${entryPlatform(sql, 'f')} = ${failure.platform}
      ${failure.code === undefined ? sql`` : sql`and f.data ->> 'code' = ${failure.code}`}
    limit 1`;
  return row !== undefined;
}

/**
 * Adds a `chat_failed` entry unless the incident already has one for this operation and code: a dead
 * channel or a revoked token must not flood the timeline. The caller holds the incident's chat lock.
 */
export async function recordChatFailureOnce(
  sql: Queryable,
  incidentId: string,
  failure: ChatFailure,
  at: Date,
): Promise<boolean> {
  if (await hasChatFailure(sql, incidentId, failure)) return false;
  await insertTimelineEntry(sql, {
    incidentId,
    type: 'chat_failed',
    actor: { type: 'system', name: 'chat' },
    data: { operation: failure.operation, code: failure.code, ...entryPlatformData(failure.platform) },
    at,
  });
  return true;
}

/**
 * The name the platform's channel was created with (the resolved rename and its topic are derived from
 * it).
 */
export async function originalChannelName(
  sql: Queryable,
  incidentId: string,
  platform: ChatPlatformName,
): Promise<string | undefined> {
  const [row] = await sql<{ name: string }[]>`
    select c.data ->> 'channel_name' as name from timeline_entries c
    where c.incident_id = ${incidentId} and c.type = 'chat_channel_created'
      and ${entryPlatform(sql, 'c')} = ${platform}
    order by c.seq limit 1`;
  return row?.name;
}

/** Chat users (by their platform id) already sent the direct message of this escalation entry. */
export async function directMessagesSent(
  sql: Queryable,
  entryId: string,
  platform: ChatPlatformName,
): Promise<Set<string>> {
  const rows = await sql<{ chat_user_id: string }[]>`
    select chat_user_id from chat_direct_messages where entry_id = ${entryId} and platform = ${platform}`;
  return new Set(rows.map((row) => row.chat_user_id));
}

export async function recordDirectMessage(
  sql: Queryable,
  dm: {
    platform: ChatPlatformName;
    entryId: string;
    chatUserId: string;
    messageTs: string | null;
    error?: string | null;
    at: Date;
  },
): Promise<void> {
  await sql`
    insert into chat_direct_messages (platform, entry_id, chat_user_id, message_ts, error, sent_at)
    values (${dm.platform}, ${dm.entryId}, ${dm.chatUserId}, ${dm.messageTs}, ${dm.error ?? null}, ${dm.at})
    on conflict (entry_id, platform, chat_user_id) do nothing`;
}

export { withIncidentChatLock } from './chat-lock';
export {
  listPendingChatQuestions,
  listPendingChatWork,
  type PendingChatQuestion,
  type PendingChatWork,
  type PendingChatWorkKind,
  type PendingChatWorkQuery,
} from './chat-recovery';
