import { createChatClient } from '@firebreak/chat-client';
import type { Config } from '@firebreak/config';
import {
  createJobWorker,
  createRedis,
  type Job,
  PermanentJobError,
  type RedisConfig,
} from '@firebreak/queue';
import { type ServiceContext, sendShiftNotice } from '@firebreak/services';
import type { ChatPlatform } from '../platform/chat-platform';
import { slackPlatform } from '../platform/slack/platform';
import { teamsPlatform } from '../platform/teams/platform';
import { answerQuestion } from './answer-question';
import { chatConcurrency } from './concurrency';
import { ChannelPendingError } from './errors';
import { sendEscalationNotice } from './escalation-notice';
import { postTimelineEntry } from './flush';
import { type ChatJob, type OutboundDeps, runChatJob } from './job';
import { markResolved } from './mark-resolved';
import { openChannel } from './open-channel';
import { ChatPauses } from './rate-limit-pauses';
import { type ChatRecoveryOptions, startChatRecovery } from './recovery';
import { sendShiftNoticeJob } from './shift-notice';

export interface ChatWorkerOptions {
  redis: RedisConfig;
  chat: Config['chat'];
  /** Microsoft Teams (docs/teams.md), beside Slack or alone; undefined when not configured. */
  teams?: Config['teams'];
  /** Links in chat messages point here (`PUBLIC_URL`). */
  publicUrl: string;
  /**
   * Jobs worked at once (8 by default); each holds one database connection while it talks to the chat
   * service, so at most the pool's size less one (concurrency.ts).
   */
  concurrency?: number;
  /** The reconciler of chat work a Redis restarted empty lost (tests shorten its wait). */
  recovery?: ChatRecoveryOptions;
}

export interface RunningChatWorker {
  /** One recovery pass now (tests): how many jobs it asked for; 0 while chat is off. */
  recoverLostWork(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The chat platforms that are on, each honouring the shared rate-limit pauses: Slack with a bot token,
 * Teams with its settings (docs/teams.md). Every incident gets a channel on each.
 */
function chatPlatforms(ctx: ServiceContext, options: ChatWorkerOptions): ChatPlatform[] {
  const platforms: ChatPlatform[] = [];
  const client = createChatClient(options.chat);
  if (client) {
    const gated = new ChatPauses(ctx, 'slack').gate(client);
    platforms.push(slackPlatform(gated, { directChannels: new Map() }));
  }
  if (options.teams) {
    const pauses = new ChatPauses(ctx, 'teams');
    platforms.push(
      teamsPlatform(options.teams, {
        gate: (scope, call) => pauses.run(scope, call),
        directConversations: new Map(),
      }),
    );
  }
  return platforms;
}

/**
 * The consumer of the `chat` queue: opens incident channels, posts the timeline, renames resolved
 * channels, pages people (docs/integrations/slack.md, docs/teams.md) on every chat platform that is on,
 * and re-queues what a Redis restarted empty lost (recovery.ts). With no platform configured chat is
 * off: jobs complete at once and do nothing, so the queue does not grow while chat is not configured,
 * and nothing is recovered.
 */
export function startChatWorker(ctx: ServiceContext, options: ChatWorkerOptions): RunningChatWorker {
  const platforms = chatPlatforms(ctx, options);
  const deps: OutboundDeps | undefined =
    platforms.length > 0 ? { ctx, platforms, publicUrl: options.publicUrl.replace(/\/+$/, '') } : undefined;
  const run = async (job: Job, incidentId: string, work: (jc: ChatJob) => Promise<void>) => {
    if (!deps) {
      ctx.logger.debug(
        { job_id: job.id, job: job.name },
        'chat is off (no chat platform configured): job skipped',
      );
      return;
    }
    await runChatJob(deps, job, incidentId, work);
  };
  const requested = options.concurrency ?? 8;
  const concurrency = chatConcurrency(requested, ctx.sql.options.max);
  if (concurrency < requested) {
    ctx.logger.info(
      { requested, concurrency, db_max_open_conns: ctx.sql.options.max },
      `chat worker runs ${concurrency} jobs at once, not ${requested}: each holds a database connection ` +
        'and DB_MAX_OPEN_CONNS leaves one for the rest of the process',
    );
  }
  const blocking = createRedis(options.redis, 'blocking', ctx.failures);
  const worker = createJobWorker(
    'chat',
    {
      'chat.open_channel': (p, job) => run(job, p.incident_id, openChannel),
      'chat.post_timeline_entry': (p, job) =>
        run(job, p.incident_id, (jc) => postTimelineEntry(jc, p.entry_id)),
      'chat.mark_resolved': (p, job) => run(job, p.incident_id, markResolved),
      'chat.escalation_notice': (p, job) =>
        run(job, p.incident_id, (jc) => sendEscalationNotice(jc, p.entry_id)),
      // A question may come from any channel: the job takes the incident's lock only when it has one.
      'chat.answer_question': async (p, job) => {
        if (deps) await answerQuestion(deps, job, p.question_id);
      },
      // Not an incident's work: no incident lock; the notice's own row lock keeps it to one message.
      // Chat off: the notice is recorded as not sent, so it is not queued again for nothing.
      'chat.shift_notice': (p, job) =>
        deps
          ? sendShiftNoticeJob(deps, job, p.notice_id)
          : sendShiftNotice(ctx, p.notice_id, async () => ({ sent: false, code: 'chat_off' })),
    },
    {
      connection: blocking,
      prefix: ctx.redisPrefix,
      concurrency,
      onFailed: (job, error) => logFailure(ctx, job, error),
    },
  );
  const recovery = deps ? startChatRecovery(ctx, platforms, options.recovery) : undefined;
  return {
    recoverLostWork: async () => (recovery ? recovery.runOnce() : 0),
    stop: async () => {
      await recovery?.stop();
      await worker.close();
      blocking.disconnect();
    },
  };
}

/** Retries are expected (an outage, a channel still opening): only a job that gives up is an error. */
function logFailure(ctx: ServiceContext, job: Job | undefined, error: Error): void {
  const final =
    !job ||
    job.attemptsMade >= (job.opts.attempts ?? 1) ||
    error instanceof PermanentJobError ||
    error.name === 'UnrecoverableError';
  const fields = {
    job_id: job?.id,
    job: job?.name,
    attempt: job?.attemptsMade,
    err: error,
  };
  if (!final) {
    ctx.logger.debug(fields, 'chat job will be retried');
    return;
  }
  ctx.metrics.jobFailures.inc({ queue: 'chat' });
  ctx.logger.error(
    fields,
    error instanceof ChannelPendingError ? 'chat job gave up: no channel' : 'chat job failed',
  );
}
