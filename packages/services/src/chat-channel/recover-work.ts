import { chat } from '@firebreak/db';
import type { JobQueues, PendingJob } from '@firebreak/queue';
import type { ChatPlatformName, TimelineEntryType } from '@firebreak/schema';
import type { ServiceContext } from '../context';

export interface ChatRecoveryRules {
  /** The platforms that are on, each with how its resolved channels' names start. */
  platforms: ReadonlyArray<{ platform: ChatPlatformName; resolvedPrefix: string }>;
  /** The timeline entries the channel hears. */
  channelEntryTypes: readonly TimelineEntryType[];
  /** How long work may wait on its own job (handed to the queue that long ago) before it counts as lost. */
  graceMs: number;
  /**
   * An incident older than this without a channel or a failure was opened while chat was off; an
   * escalation step older than this is a stale page, and is not sent.
   */
  openingWindowMs: number;
  /** How far back to look: older work is history, and the pass stays cheap. */
  lookBackMs: number;
  /** Jobs queued per pass at most; the rest waits for the next pass. */
  limit: number;
}

/**
 * The job that completes one piece of pending work. Its id names the work, so however many passes
 * (or chat replicas) ask while the job is queued, Redis holds one. Each job re-reads the incident and
 * does only what is still missing (docs/integrations/slack.md#posting).
 */
function jobFor(work: chat.PendingChatWork): PendingJob {
  const incident_id = work.incident_id;
  const entry_id = work.entry_id ?? '';
  switch (work.kind) {
    case 'open_channel':
      return {
        name: 'chat.open_channel',
        payload: { incident_id },
        options: { jobId: `chat-recovery-open-${incident_id}` },
      };
    case 'post_entries':
      return {
        name: 'chat.post_timeline_entry',
        payload: { incident_id, entry_id },
        options: { jobId: `chat-recovery-post-${entry_id}` },
      };
    case 'escalation_notice':
      return {
        name: 'chat.escalation_notice',
        payload: { incident_id, entry_id },
        options: { jobId: `chat-recovery-notice-${entry_id}` },
      };
    case 'mark_resolved':
      return {
        name: 'chat.mark_resolved',
        payload: { incident_id },
        options: { jobId: `chat-recovery-resolved-${incident_id}` },
      };
  }
}

/**
 * Chat's "timers are rows" (docs/architecture.md#timers-are-rows): once relayed, chat jobs live only in
 * Redis, and a Redis restarted empty loses them. What the channel has heard is in PostgreSQL, so this
 * pass finds the incidents whose channel, card, posts, pages or rename are still owed, and queues the
 * job that completes each. Returns how many jobs it asked for (those already queued add nothing).
 */
export async function recoverChatWork(
  ctx: ServiceContext,
  queues: JobQueues,
  rules: ChatRecoveryRules,
): Promise<number> {
  const now = ctx.now().getTime();
  // A job works every platform of its incident: work owed on two platforms is one job.
  const jobs = new Map<string, PendingJob>();
  for (const { platform, resolvedPrefix } of rules.platforms) {
    const work = await chat.listPendingChatWork(ctx.sql, {
      platform,
      resolvedPrefix,
      since: new Date(now - rules.lookBackMs),
      quietSince: new Date(now - rules.graceMs),
      openingSince: new Date(now - rules.openingWindowMs),
      channelEntryTypes: rules.channelEntryTypes,
      limit: rules.limit,
    });
    for (const job of work.map(jobFor)) jobs.set(job.options?.jobId ?? '', job);
  }
  if (jobs.size > 0) await queues.enqueueMany([...jobs.values()]);
  return jobs.size;
}
