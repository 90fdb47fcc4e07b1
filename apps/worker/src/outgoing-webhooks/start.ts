import { createJobWorker, type JobQueues, type Redis } from '@firebreak/queue';
import {
  deliverWebhookLine,
  type LineOutcome,
  listDueWebhookLines,
  reportIfDatabaseUnavailable,
  type SendWebhook,
  type ServiceContext,
  type WebhookLine,
} from '@firebreak/services';
import { createLineScheduler, type LineScheduler } from './scheduler';
import { createWebhookSender } from './send';

export interface OutgoingWebhookOptions {
  connection: Redis;
  intervalMs: number;
  /** The HTTP client; tests may give one with a shorter timeout. */
  send?: SendWebhook;
}

export interface RunningOutgoingWebhooks {
  /** Delivers every line due now and waits for it (tests; the reconciler does this by itself). */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

// Four lines at once per worker process, two per webhook: each waiting request holds one database
// connection (the line's lock), and the pool serves pages too.
const SLOTS = { concurrency: 4, perWebhook: 2 };
// Lines the reconciler takes per pass, beyond those this process already has in hand.
const RECONCILE_BATCH = 100;

/**
 * Outgoing webhooks (docs/integrations/outgoing-webhooks.md): the `webhooks` queue's consumer, on a
 * queue of its own so that a slow target never delays a page, and the reconciler that delivers what is
 * due whether or not its wake-up job exists (docs/architecture.md#timers-are-rows).
 */
export function startOutgoingWebhooks(
  ctx: ServiceContext,
  queues: JobQueues,
  options: OutgoingWebhookOptions,
): RunningOutgoingWebhooks {
  const send = options.send ?? createWebhookSender();
  const scheduler: LineScheduler = createLineScheduler(async (line) => {
    try {
      const outcome = await deliverWebhookLine(ctx, line, send);
      if (outcome) await followUp(ctx, queues, scheduler, line, outcome);
    } catch (error) {
      // The deliveries wait in PostgreSQL; the reconciler takes the line again.
      if (!reportIfDatabaseUnavailable(ctx, error)) {
        ctx.logger.error({ outgoing_webhook_id: line.webhookId, err: error }, 'outgoing webhook run failed');
      }
    }
  }, SLOTS);
  const worker = createJobWorker(
    'webhooks',
    {
      // A wake-up call: the line is handed to the scheduler and the job ends.
      'webhook.deliver': async (payload) => {
        void scheduler.submit({ webhookId: payload.webhook_id, incidentId: payload.incident_id });
      },
    },
    {
      connection: options.connection,
      prefix: ctx.redisPrefix,
      concurrency: 8,
      onFailed: (job, error) => {
        ctx.metrics.jobFailures.inc({ queue: 'webhooks' });
        ctx.logger.error({ job_id: job?.id, job: job?.name, err: error }, 'job failed');
      },
    },
  );
  const reconcile = async (wait: boolean) => {
    const lines = await listDueWebhookLines(ctx, RECONCILE_BATCH + scheduler.size());
    const runs = lines.map((line) => scheduler.submit(line));
    if (wait) await Promise.all(runs);
  };
  let listing: Promise<void> | undefined;
  const pass = (wait: boolean) =>
    reconcile(wait).catch((error: Error) => {
      if (!reportIfDatabaseUnavailable(ctx, error)) {
        ctx.logger.warn({ err: error }, 'outgoing webhook reconciler pass failed');
      }
    });
  const timer = setInterval(() => {
    listing ??= pass(false).finally(() => {
      listing = undefined;
    });
  }, options.intervalMs);
  return {
    runOnce: () => pass(true),
    stop: async () => {
      clearInterval(timer);
      await listing;
      await worker.close();
      await scheduler.stop();
    },
  };
}

/**
 * After a run: a head waiting for its retry gets a wake-up job for that moment (its id names the try,
 * so however often this runs, Redis holds one); a run that stopped at its limit goes again.
 */
async function followUp(
  ctx: ServiceContext,
  queues: JobQueues,
  scheduler: LineScheduler,
  line: WebhookLine,
  outcome: LineOutcome,
): Promise<void> {
  if (outcome.more) void scheduler.submit(line);
  if (!outcome.retry) return;
  const { deliveryId, attempts, at } = outcome.retry;
  await queues
    .enqueue(
      'webhook.deliver',
      { webhook_id: line.webhookId, incident_id: line.incidentId },
      { jobId: `whk-${deliveryId}-${attempts}`, delayMs: at.getTime() - ctx.now().getTime() },
    )
    .catch((error: Error) => {
      // The retry time is safe in PostgreSQL; the reconciler delivers it if this job never comes.
      ctx.logger.debug({ delivery_id: deliveryId, err: error }, 'outgoing webhook wake-up not scheduled');
    });
}
