import type { Config } from '@firebreak/config';
import { registerQueueDepths } from '@firebreak/metrics';
import {
  createJobQueues,
  createJobWorker,
  createRedis,
  type JobQueues,
  type RedisConfig,
} from '@firebreak/queue';
import type { ServiceContext } from '@firebreak/services';
import { aiHandlers } from './ai/handlers';
import { createAiProvider } from './ai/provider';
import { startEscalationReconciler } from './escalation-timers';
import { startHeartbeatReconciler } from './heartbeat-reconciler';
import { startHousekeeping } from './housekeeping';
import { startMaintenanceRelease } from './maintenance-release';
import { startNotify } from './notify/start';
import { startOutboxRelay } from './outbox-relay';
import { startOutgoingWebhooks } from './outgoing-webhooks/start';
import { startShiftNoticeTimers } from './shift-notice-timers';
import { startTelegramFeed } from './telegram/start';

export interface WorkerOptions {
  redis: RedisConfig;
  /** The AI provider's configuration (`AI_PROVIDER=none`: AI jobs fail with that reason). */
  ai: Config['ai'];
  /** How often the reconciler looks for due escalations, and the relay polls besides notifications. */
  intervalMs?: number;
  /** Personal paging's methods (docs/paging.md); absent: none configured, pages fail with that reason. */
  paging?: Config['paging'];
  /** `PUBLIC_URL`: the links in pages start with it. */
  publicUrl?: string;
  /** Telegram's environment part (docs/telegram.md); absent: only what Settings → Telegram holds. */
  telegram?: Config['telegram'];
  /**
   * True only where this process also runs the chat worker and chat is off (no bot token): chat jobs
   * are then not relayed, as the chat worker would complete them doing nothing. A worker running alone
   * cannot know the chat app's configuration and leaves this unset.
   */
  chatOff?: boolean;
}

export interface RunningWorker {
  queues: JobQueues;
  /** Relay what is pending and fire what is due now (tests; the loops do this by themselves). */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Everything the worker runs: the outbox relay, the escalation consumer and reconciler, the heartbeat
 * reconciler, the release of ended maintenance windows, housekeeping.
 * The embedded start runs it inside its process; `apps/worker/src/main.ts` runs it alone.
 */
export async function startWorker(ctx: ServiceContext, options: WorkerOptions): Promise<RunningWorker> {
  const intervalMs = options.intervalMs ?? 1000;
  const queues = createJobQueues(ctx.redis, ctx.redisPrefix);
  const telegram = options.telegram ?? {
    botToken: undefined,
    chatId: undefined,
    apiUrl: 'https://api.telegram.org',
  };
  registerQueueDepths(ctx.metrics, () => queues.depths());
  const blocking = createRedis(options.redis, 'blocking', ctx.failures);
  // Fires steps at their deadlines from PostgreSQL alone. An `escalation.check` job (escalations started
  // by older versions wrote one) only asks it to look now.
  const reconciler = await startEscalationReconciler(ctx, intervalMs);
  const escalationWorker = createJobWorker(
    'escalation',
    {
      'escalation.check': async () => {
        await reconciler.runOnce();
      },
    },
    {
      connection: blocking,
      prefix: ctx.redisPrefix,
      concurrency: 16,
      onFailed: (job, error) => {
        ctx.metrics.jobFailures.inc({ queue: 'escalation' });
        ctx.logger.error({ job_id: job?.id, job: job?.name, err: error }, 'job failed');
      },
    },
  );
  // A queue of its own: a slow AI call never delays a page.
  const aiWorker = createJobWorker('ai', aiHandlers(ctx, createAiProvider(options.ai)), {
    connection: blocking,
    prefix: ctx.redisPrefix,
    concurrency: 2,
    onFailed: (job, error) => {
      ctx.metrics.jobFailures.inc({ queue: 'ai' });
      ctx.logger.error({ job_id: job?.id, job: job?.name, err: error }, 'job failed');
    },
  });
  // A queue of its own too: a slow webhook target never delays a page.
  const webhooks = startOutgoingWebhooks(ctx, queues, { connection: blocking, intervalMs });
  // A queue of its own: a slow mail server never delays an escalation or a chat job.
  const notify = startNotify(ctx, queues, {
    connection: blocking,
    intervalMs,
    paging: options.paging ?? { email: undefined, twilio: undefined, push: undefined },
    publicUrl: options.publicUrl ?? 'http://localhost:8080',
    telegram,
  });
  // From PostgreSQL alone, like the escalation reconciler: the feed's rows are its queue.
  const telegramFeed = startTelegramFeed(ctx, {
    intervalMs,
    telegram,
    publicUrl: options.publicUrl ?? 'http://localhost:8080',
  });
  const relay = await startOutboxRelay(ctx, queues, intervalMs, {
    unconsumedQueues: new Set(options.chatOff ? ['chat'] : []),
  });
  const heartbeatReconciler = startHeartbeatReconciler(ctx, intervalMs);
  const shiftNotices = startShiftNoticeTimers(ctx, intervalMs);
  const maintenanceRelease = startMaintenanceRelease(ctx, intervalMs);
  const housekeeping = startHousekeeping(ctx);
  return {
    queues,
    tick: async () => {
      // First: the incidents a window's end opens then reach the queues in this same tick.
      await maintenanceRelease.runOnce();
      // Before the relay too: a shift notice due now reaches the chat queue in this tick.
      await shiftNotices.runOnce({ plan: true });
      await relay.flush();
      await reconciler.runOnce();
      await webhooks.runOnce();
      await notify.runOnce();
      await heartbeatReconciler.runOnce();
      await telegramFeed.runOnce();
    },
    // Stop taking work first, let in-flight jobs finish (BullMQ's close waits for them), then the
    // connections. Jobs not started stay in Redis for the next worker.
    stop: async () => {
      housekeeping.stop();
      await maintenanceRelease.stop();
      await Promise.all([
        relay.stop(),
        reconciler.stop(),
        heartbeatReconciler.stop(),
        shiftNotices.stop(),
        telegramFeed.stop(),
      ]);
      await Promise.all([escalationWorker.close(), aiWorker.close(), webhooks.stop(), notify.stop()]);
      await queues.close();
      blocking.disconnect();
    },
  };
}
