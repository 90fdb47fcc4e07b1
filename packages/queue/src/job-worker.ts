import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { isJobName, type JobName, type JobPayload, type JobsOf, jobCatalog, type QueueName } from './jobs';
import { cappedBackoffStrategy } from './queues';

/** Thrown by a handler that re-scheduled its own job (`job.moveToDelayed`), e.g. after a 429. */
export { DelayedError } from 'bullmq';

export type JobHandler<N extends JobName> = (payload: JobPayload<N>, job: Job) => Promise<void>;
/**
 * A handler for every job of queue `Q`: a job added to the catalog without a handler on its queue's
 * worker does not compile.
 */
export type QueueHandlers<Q extends QueueName> = { [N in JobsOf<Q>]: JobHandler<N> };

/** A failure that retrying cannot fix (bad payload, a chat error such as `invalid_auth`). */
export class PermanentJobError extends UnrecoverableError {}

export interface JobWorkerOptions {
  /** A `blocking` client (BullMQ needs `maxRetriesPerRequest: null`). */
  connection: Redis;
  prefix: string;
  concurrency?: number;
  onFailed?: (job: Job | undefined, error: Error) => void;
}

/**
 * Consumes one queue. Payloads are validated against the catalog before a handler sees them; an
 * invalid payload or an unknown job name fails at once, without retries.
 */
export function createJobWorker<Q extends QueueName>(
  queue: Q,
  handlers: QueueHandlers<Q>,
  options: JobWorkerOptions,
): Worker {
  const handlerOf = handlers as Partial<Record<JobName, JobHandler<JobName>>>;
  const worker = new Worker(
    queue,
    async (job) => {
      if (!isJobName(job.name)) throw new PermanentJobError(`unknown job ${job.name}`);
      // Only a job added to the wrong queue by hand gets here without a handler.
      const handler = handlerOf[job.name];
      if (!handler) throw new PermanentJobError(`no handler for ${job.name} on this worker`);
      const parsed = jobCatalog[job.name].payload.safeParse(job.data);
      if (!parsed.success)
        throw new PermanentJobError(`invalid payload for ${job.name}: ${parsed.error.message}`);
      await handler(parsed.data as JobPayload<JobName>, job);
    },
    {
      connection: options.connection,
      prefix: `${options.prefix}:q`,
      concurrency: options.concurrency ?? 8,
      autorun: true,
      // A job whose process died is handed to another worker within about 20 s (BullMQ's defaults,
      // 30 s + 30 s, let a page wait a minute). The lock is renewed every 7.5 s while the job runs;
      // a job taken over by mistake is harmless, as every handler is idempotent.
      lockDuration: 15_000,
      stalledInterval: 5_000,
      settings: { backoffStrategy: cappedBackoffStrategy },
    },
  );
  worker.on('failed', (job, error) => options.onFailed?.(job, error));
  // Connection errors are reported by the client's own watcher; without a listener they would crash.
  worker.on('error', () => {});
  return worker;
}
