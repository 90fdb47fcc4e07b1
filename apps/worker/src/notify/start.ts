import type { PagingConfig } from '@firebreak/config';
import { createJobWorker, type JobQueues, type Redis } from '@firebreak/queue';
import {
  readContactToTest,
  readVerificationToSend,
  reportIfDatabaseUnavailable,
  type ServiceContext,
  type TelegramConfig,
  wakeDuePages,
} from '@firebreak/services';
import { botFor, deliverPage, type PageDeps } from './deliver-page';
import { realSenders, type Senders, sendNotice } from './dispatch';
import { closeEmailTransports } from './email-sender';

export interface NotifyOptions {
  connection: Redis;
  intervalMs: number;
  paging: PagingConfig;
  publicUrl: string;
  /** The senders; tests may give fakes' clients. */
  senders?: Senders;
  /** Telegram's environment part (docs/telegram.md); absent: only a token saved in Settings. */
  telegram?: TelegramConfig;
}

export interface RunningNotify {
  /** One reconciler pass: queue a wake-up for every due page (tests; the timer does this by itself). */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Personal paging (docs/paging.md): the `notify` queue's consumer, on a queue of its own so that a slow
 * SMTP server never delays a chat job or an escalation, and the reconciler that queues a wake-up for
 * each due page, whether it came due now or its earlier wake-up was lost
 * (docs/architecture.md#timers-are-rows).
 */
export function startNotify(ctx: ServiceContext, queues: JobQueues, options: NotifyOptions): RunningNotify {
  const deps: PageDeps = {
    ctx,
    paging: options.paging,
    publicUrl: options.publicUrl.replace(/\/+$/, ''),
    senders: options.senders ?? realSenders,
    telegram: options.telegram ?? {
      botToken: undefined,
      chatId: undefined,
      apiUrl: 'https://api.telegram.org',
    },
  };
  const worker = createJobWorker(
    'notify',
    {
      'notify.deliver': (payload) => deliverPage(deps, payload.delivery_id),
      'notify.send_code': async (payload) => {
        const found = await readVerificationToSend(ctx, payload.contact_method_id, payload.nonce);
        if (!found) return;
        const outcome = await sendNotice(
          deps.paging,
          deps.senders,
          found.contact,
          { kind: 'code', code: found.code },
          await botFor(deps, found.contact.type),
        );
        settle(
          ctx,
          outcome,
          { contact_method_id: found.contact.id, type: found.contact.type },
          'verification code not sent',
        );
      },
      'notify.test': async (payload) => {
        const contact = await readContactToTest(ctx, payload.contact_method_id);
        if (!contact) return;
        const outcome = await sendNotice(
          deps.paging,
          deps.senders,
          contact,
          { kind: 'test', url: `${deps.publicUrl}/` },
          await botFor(deps, contact.type),
        );
        settle(
          ctx,
          outcome,
          { contact_method_id: contact.id, type: contact.type },
          'test notification not sent',
        );
      },
    },
    {
      connection: options.connection,
      prefix: ctx.redisPrefix,
      concurrency: 8,
      onFailed: (job, error) => {
        ctx.metrics.jobFailures.inc({ queue: 'notify' });
        ctx.logger.error({ job_id: job?.id, job: job?.name, err: error }, 'job failed');
      },
    },
  );
  let running: Promise<number> | undefined;
  const runOnce = () => {
    running ??= wake(ctx, queues)
      .catch((error: Error) => {
        if (!reportIfDatabaseUnavailable(ctx, error))
          ctx.logger.warn({ err: error }, 'page reconciler pass failed');
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = setInterval(() => void runOnce(), options.intervalMs);
  return {
    runOnce,
    stop: async () => {
      clearInterval(timer);
      await running;
      await worker.close();
      closeEmailTransports();
    },
  };
}

/**
 * Queues one wake-up per due page. The job id names the row and its wake-up count: a repeat of this pass
 * adds nothing, and a job Redis lost is replaced by a new one when the row is woken again. If Redis is
 * down the rows stay due in PostgreSQL and are woken again once it is back.
 */
async function wake(ctx: ServiceContext, queues: JobQueues): Promise<number> {
  const due = await wakeDuePages(ctx);
  if (due.length === 0) return 0;
  await queues
    .enqueueMany(
      due.map((row) => ({
        name: 'notify.deliver' as const,
        payload: { delivery_id: row.id },
        options: { jobId: `ntf-${row.id}-${row.wakeups}` },
      })),
    )
    .catch((error: Error) => {
      ctx.logger.debug({ err: error, pages: due.length }, 'page wake-ups not queued');
    });
  return due.length;
}

/** A code or test message: retried by the job when it may pass, else logged for the runbook. */
function settle(
  ctx: ServiceContext,
  outcome: Awaited<ReturnType<typeof sendNotice>>,
  fields: Record<string, string>,
  line: string,
): void {
  if (outcome.ok) return;
  if (outcome.retryable) throw new Error(outcome.error);
  ctx.logger.warn({ ...fields, error: outcome.error }, line);
}
