import type { Actor, IncidentStatus, TimelineEntryType } from '@firebreak/schema';
import type { Queryable } from './client';
import { nextTierColumn } from './escalation-next-tier';
import type { IncidentRow } from './incidents';
import { insertTimelineEntry } from './timeline';

/** An incident as its chat channel shows it: the row, the commander's chat identity, the alert count. */
export interface ChatIncident extends IncidentRow {
  chat_card_ts: string | null;
  chat_card_digest: string | null;
  chat_topic: string | null;
  /** See migration 0010. */
  chat_channel_creating: string | null;
  commander_name: string | null;
  commander_slack_user_id: string | null;
  alert_count: number;
  /** The tier the card's Escalate button pages (1-based); null when none is left. */
  next_tier: number | null;
}

export async function findChatIncident(sql: Queryable, id: string): Promise<ChatIncident | undefined> {
  const [row] = await sql<ChatIncident[]>`
    select i.*, u.name as commander_name, u.slack_user_id as commander_slack_user_id,
           (select count(*)::int from alerts a where a.incident_id = i.id) as alert_count,
           ${nextTierColumn(sql)} as next_tier
    from incidents i left join users u on u.id = i.commander_id
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

/** The incident whose chat channel this is (`incidents.chat_channel_id` is unique), if any. */
export async function findIncidentByChannel(
  sql: Queryable,
  channelId: string,
): Promise<ChannelIncident | undefined> {
  const [row] = await sql<ChannelIncident[]>`
    select id, number, title, status, commander_id from incidents where chat_channel_id = ${channelId}`;
  return row;
}

/**
 * Stores the channel only if the incident has none yet (a conditional update), so two jobs can never
 * both give one incident a channel. Returns whether this call stored it.
 */
export async function claimChatChannel(
  sql: Queryable,
  id: string,
  channel: { id: string; name: string },
): Promise<boolean> {
  const result = await sql`
    update incidents
    set chat_channel_id = ${channel.id}, chat_channel_name = ${channel.name}, chat_channel_creating = null
    where id = ${id} and chat_channel_id is null`;
  return result.count > 0;
}

/** Records the name about to be asked for, before asking (see migration 0010). */
export async function markChatChannelCreating(sql: Queryable, id: string, name: string): Promise<void> {
  await sql`update incidents set chat_channel_creating = ${name} where id = ${id}`;
}

export async function setChatChannelName(sql: Queryable, id: string, name: string): Promise<void> {
  await sql`update incidents set chat_channel_name = ${name} where id = ${id}`;
}

export async function setChatCard(sql: Queryable, id: string, card: { ts?: string; digest: string }) {
  await sql`
    update incidents set chat_card_ts = coalesce(${card.ts ?? null}, chat_card_ts), chat_card_digest = ${card.digest}
    where id = ${id}`;
}

export async function setChatTopic(sql: Queryable, id: string, topic: string): Promise<void> {
  await sql`update incidents set chat_topic = ${topic} where id = ${id}`;
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

/** Entries of these types the channel has not heard yet, up to `uptoSeq` (all when null), in order. */
export async function listUnpostedEntries(
  sql: Queryable,
  incidentId: string,
  types: readonly TimelineEntryType[],
  uptoSeq: string | null,
): Promise<ChatEntry[]> {
  return sql<ChatEntry[]>`
    select ${entryColumns(sql)} from timeline_entries t ${entryJoins(sql)}
    where t.incident_id = ${incidentId} and t.type = any(${types as string[]})
      ${uptoSeq === null ? sql`` : sql`and t.seq <= ${uptoSeq}`}
      and not exists (select 1 from chat_posts p where p.entry_id = t.id)
    order by t.seq`;
}

export interface ChatPost {
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
    insert into chat_posts (entry_id, incident_id, channel_id, message_ts, error, posted_at)
    values (${post.entryId}, ${post.incidentId}, ${post.channelId}, ${post.messageTs}, ${post.error ?? null},
            ${post.at})
    on conflict (entry_id) do nothing`;
}

/**
 * The card stands for the entries written when the incident was opened (its creation and a commander
 * named then): they are recorded as posted with the card's `ts`, so they are not posted again.
 */
export async function recordCardPost(sql: Queryable, incident: IncidentRow, post: Omit<ChatPost, 'entryId'>) {
  await sql`
    insert into chat_posts (entry_id, incident_id, channel_id, message_ts, posted_at)
    select id, incident_id, ${post.channelId}, ${post.messageTs}, ${post.at} from timeline_entries
    where incident_id = ${incident.id} and type in ('incident_created', 'commander_assigned')
      and created_at = ${incident.created_at}
    on conflict (entry_id) do nothing`;
}

/** When the channel last received a post from us (pacing: one per second per channel). */
export async function lastChatPostAt(sql: Queryable, channelId: string): Promise<Date | undefined> {
  const [row] = await sql<{ posted_at: Date }[]>`
    select posted_at from chat_posts where channel_id = ${channelId} and message_ts is not null
    order by posted_at desc limit 1`;
  return row?.posted_at;
}

export interface ChatFailure {
  operation: string;
  code: string;
}

/** Whether a `chat_failed` entry exists for this operation (and code, when given). */
export async function hasChatFailure(
  sql: Queryable,
  incidentId: string,
  failure: { operation: string; code?: string },
): Promise<boolean> {
  const [row] = await sql`
    select 1 from timeline_entries
    where incident_id = ${incidentId} and type = 'chat_failed' and data ->> 'operation' = ${failure.operation}
      ${failure.code === undefined ? sql`` : sql`and data ->> 'code' = ${failure.code}`}
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
    data: { operation: failure.operation, code: failure.code },
    at,
  });
  return true;
}

/** The name the channel was created with (the resolved rename and its topic are derived from it). */
export async function originalChannelName(sql: Queryable, incidentId: string): Promise<string | undefined> {
  const [row] = await sql<{ name: string }[]>`
    select data ->> 'channel_name' as name from timeline_entries
    where incident_id = ${incidentId} and type = 'chat_channel_created'
    order by seq limit 1`;
  return row?.name;
}

/** Chat users already sent the direct message of this escalation entry (or refused for good). */
export async function directMessagesSent(sql: Queryable, entryId: string): Promise<Set<string>> {
  const rows = await sql<{ slack_user_id: string }[]>`
    select slack_user_id from chat_direct_messages where entry_id = ${entryId}`;
  return new Set(rows.map((row) => row.slack_user_id));
}

export async function recordDirectMessage(
  sql: Queryable,
  dm: { entryId: string; slackUserId: string; messageTs: string | null; error?: string | null; at: Date },
): Promise<void> {
  await sql`
    insert into chat_direct_messages (entry_id, slack_user_id, message_ts, error, sent_at)
    values (${dm.entryId}, ${dm.slackUserId}, ${dm.messageTs}, ${dm.error ?? null}, ${dm.at})
    on conflict (entry_id, slack_user_id) do nothing`;
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
