import type { ChatPlatformName, TimelineEntryType } from '@firebreak/schema';
import { entryPlatform } from './chat-entry-platform';
import type { Queryable } from './client';

/**
 * What an incident's chat channel still lacks, named after the job that completes it:
 * `open_channel` (channel, topic or card), `post_entries` (timeline entries up to `entry_id`),
 * `escalation_notice` (the direct messages of the step `entry_id`), `mark_resolved` (the rename).
 */
export type PendingChatWorkKind = 'open_channel' | 'post_entries' | 'escalation_notice' | 'mark_resolved';

export interface PendingChatWork {
  kind: PendingChatWorkKind;
  incident_id: string;
  entry_id: string | null;
}

export interface PendingChatWorkQuery {
  /** Whose channels: each platform's work is owed and recovered on its own. */
  platform: ChatPlatformName;
  /** How a resolved channel's name starts on this platform (`[RESOLVED] #` on Slack, `[RESOLVED] ` on Teams). */
  resolvedPrefix: string;
  /** Work older than this is history: entries written, and incidents resolved, before it are left alone. */
  since: Date;
  /** Work written, or handed to the queue, after this is left to its own job, which may still be at work. */
  quietSince: Date;
  /**
   * An incident created before this without a channel (nor a failure) was opened while chat was off;
   * an escalation step written before this pages nobody any more (the page is stale).
   */
  openingSince: Date;
  /** The timeline entries the channel hears. */
  channelEntryTypes: readonly TimelineEntryType[];
  limit: number;
}

/**
 * Chat work that PostgreSQL says is owed and no recent job is doing, newest first (see
 * docs/integrations/slack.md#recovery). A `chat_failed` entry for the step means chat gave up on it
 * for good (a refusal, or an outage outlasting the job's retries), and it is not asked for again.
 * Newest first so the pass cannot starve: work whose recovery job failed for good stays owed (its job
 * id is taken while Redis keeps the failed job), and oldest first it would fill every batch ahead of
 * newer work; newest first it only trails, and ages out of `since`.
 * Incidents whose chat work sits in the outbox, or reached the queue after `quietSince`, are skipped:
 * their jobs are on their way or at work.
 */
export async function listPendingChatWork(
  sql: Queryable,
  q: PendingChatWorkQuery,
): Promise<PendingChatWork[]> {
  // `since`: only a failure written after the incident was resolved (a rename), or after the step was
  // written (a page), counts; an earlier one concerned earlier work.
  const gaveUp = (operations: string[], since?: 'resolution' | 'step') => sql`exists (
    select 1 from timeline_entries f
    where f.incident_id = r.id and f.type = 'chat_failed' and f.data ->> 'operation' = any(${operations})
      and ${entryPlatform(sql, 'f')} = ${q.platform}
      ${since === 'resolution' ? sql`and f.created_at >= r.resolved_at` : sql``}
      ${since === 'step' ? sql`and f.created_at >= step.created_at` : sql``})`;
  return sql<PendingChatWork[]>`
    with recent as (
      select i.id, i.status, i.created_at, i.resolved_at, c.channel_id as chat_channel_id,
             c.channel_name as chat_channel_name, c.card_id as chat_card_ts, c.topic as chat_topic
      from incidents i
      left join chat_channels c on c.incident_id = i.id and c.platform = ${q.platform}
      where (i.resolved_at is null or i.resolved_at > ${q.since})
        and i.created_at <= ${q.quietSince}
        and not exists (
          select 1 from outbox o
          where o.ordering_key = i.id::text and o.job_name like 'chat.%'
            and (o.sent_at is null or o.sent_at > ${q.quietSince}))
    ),
    work as (
      select 'open_channel' as kind, r.id as incident_id, null::uuid as entry_id, r.created_at as due
      from recent r
      where (r.chat_channel_id is null and r.created_at > ${q.openingSince}
             and not ${gaveUp(['create_channel'])})
         or (r.chat_channel_id is not null and (r.chat_topic is null or r.chat_card_ts is null)
             and not ${gaveUp(['setup_channel', 'post_card'])})
      union all
      select 'post_entries', r.id, last.id, last.created_at
      from recent r
      cross join lateral (
        select t.id, t.created_at from timeline_entries t
        where t.incident_id = r.id and t.type = any(${q.channelEntryTypes as string[]})
          and t.created_at > ${q.since} and t.created_at <= ${q.quietSince}
          and not exists (select 1 from chat_posts p where p.entry_id = t.id and p.platform = ${q.platform})
        order by t.seq desc limit 1
      ) last
      where r.chat_channel_id is not null and (r.chat_card_ts is not null or ${gaveUp(['post_card'])})
      union all
      -- A step pages the people it still owes a direct message, unless a later step of the incident
      -- paged one of them again: that page is stale (a late burst of pages helps nobody). A person a later
      -- tier passed over was paged by no later step, so their only page is still owed: the incident is
      -- still triggered and they never heard of it. The step's job pages everyone it still owes, so a
      -- step owing anyone a stale page is left out whole. Neither a step older than the opening window
      -- (chat was off, or out longer than the job's retries) nor one chat gave up on is sent.
      select 'escalation_notice', r.id, step.id, step.created_at
      from recent r
      join timeline_entries step on step.incident_id = r.id and step.type = 'escalation_triggered'
      cross join lateral (
        select array_agg(${chatIdOf(sql, q.platform, 'target')}) as people
        from jsonb_array_elements(
          case when jsonb_typeof(step.data -> 'targets') = 'array' then step.data -> 'targets' else '[]'::jsonb end
        ) target
        where coalesce(${chatIdOf(sql, q.platform, 'target')}, '') <> ''
          -- A person whose notification rules leave chat out gets no direct message.
          and coalesce(target ->> 'chat_page', '') <> 'false'
          and not exists (
            select 1 from chat_direct_messages d
            where d.entry_id = step.id and d.platform = ${q.platform}
              and d.chat_user_id = ${chatIdOf(sql, q.platform, 'target')})
      ) owed
      -- Pages stop once the incident is taken, but for a step escalated by hand while it was
      -- acknowledged: someone asked for help, and that page is owed until the resolution.
      where (r.status = 'triggered'
             or (r.status = 'acknowledged' and step.data ->> 'while_acknowledged' = 'true'))
        and step.created_at > ${q.openingSince}
        and step.created_at <= ${q.quietSince}
        and owed.people is not null
        and not ${gaveUp(['direct_message'], 'step')}
        and not exists (
          select 1 from timeline_entries later
          cross join lateral jsonb_array_elements(
            case when jsonb_typeof(later.data -> 'targets') = 'array' then later.data -> 'targets' else '[]'::jsonb end
          ) again
          where later.incident_id = r.id and later.type = 'escalation_triggered' and later.seq > step.seq
            and ${chatIdOf(sql, q.platform, 'again')} = any(owed.people))
      union all
      select 'mark_resolved', r.id, null::uuid, r.resolved_at
      from recent r
      cross join lateral (
        select data ->> 'channel_name' as name from timeline_entries c
        where c.incident_id = r.id and c.type = 'chat_channel_created'
          and ${entryPlatform(sql, 'c')} = ${q.platform}
        order by c.seq limit 1
      ) original
      where r.status = 'resolved' and r.chat_channel_id is not null
        and r.chat_channel_name is distinct from ${q.resolvedPrefix} || original.name
        and (r.chat_channel_name = original.name
             or not starts_with(coalesce(r.chat_topic, ''), ${q.resolvedPrefix}))
        and not ${gaveUp(['rename_channel', 'update_topic'], 'resolution')}
    )
    select kind, incident_id, entry_id from work order by due desc, incident_id limit ${q.limit}`;
}

/**
 * The platform's chat id of an escalation target (a JSON element of a step's `targets`, which names
 * the person's id on each platform as the step found it: `slack_user_id`, `teams_user_id`).
 */
function chatIdOf(sql: Queryable, platform: ChatPlatformName, target: string) {
  return sql`(${sql(target)} ->> ${`${platform}_user_id`})`;
}

/** A question of the bot whose answer is owed: `answer_question` posts it, `chat_answer` asks the AI. */
export interface PendingChatQuestion {
  kind: 'answer_question' | 'chat_answer';
  question_id: string;
  request_id: string | null;
}

/**
 * Questions asked of the bot (docs/chat.md#questions) whose jobs a Redis restarted empty may have lost:
 * an answer known but not posted in the thread (`answer is not null and replied_at is null`), and a
 * `chat_answer` request still pending. Newest first, like the rest of the pass; work whose outbox row
 * has not reached the queue, or reached it after `quietSince`, is left to its own job.
 */
export async function listPendingChatQuestions(
  sql: Queryable,
  q: Pick<PendingChatWorkQuery, 'since' | 'quietSince' | 'limit'>,
): Promise<PendingChatQuestion[]> {
  return sql<PendingChatQuestion[]>`
    select kind, question_id, request_id from (
      select 'answer_question' as kind, c.id as question_id, c.request_id, c.created_at as due
      from chat_questions c
      where c.answer is not null and c.replied_at is null
        and c.created_at > ${q.since} and c.created_at <= ${q.quietSince}
        and not exists (
          select 1 from outbox o
          where o.job_name = 'chat.answer_question' and o.payload ->> 'question_id' = c.id::text
            and (o.sent_at is null or o.sent_at > ${q.quietSince}))
      union all
      select 'chat_answer', c.id, c.request_id, c.created_at
      from chat_questions c join ai_requests r on r.id = c.request_id
      where c.answer is null and r.kind = 'chat_answer' and r.status = 'pending'
        and c.created_at > ${q.since} and c.created_at <= ${q.quietSince}
        and not exists (
          select 1 from outbox o
          where o.job_name = 'ai.chat_answer' and o.payload ->> 'request_id' = r.id::text
            and (o.sent_at is null or o.sent_at > ${q.quietSince}))
    ) owed
    order by due desc, question_id limit ${q.limit}`;
}
