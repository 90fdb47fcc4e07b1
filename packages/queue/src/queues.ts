import { type BackoffStrategy, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  isJobName,
  type JobName,
  type JobPayload,
  jobCatalog,
  type QueueName,
  queueNames,
  retryDelayMs,
} from './jobs';

export interface EnqueueOptions {
  /** Deterministic id: adding a job whose id is already queued (or recently done) adds nothing. */
  jobId?: string;
  delayMs?: number;
}

export interface PendingJob {
  name: JobName;
  payload: unknown;
  options?: EnqueueOptions;
}

/** The producer side of every queue; the only place (with `createJobWorker`) that knows BullMQ. */
export interface JobQueues {
  enqueue<N extends JobName>(name: N, payload: JobPayload<N>, options?: EnqueueOptions): Promise<void>;
  /** Several jobs, validated first: either all are handed to Redis or the call fails. */
  enqueueMany(jobs: readonly PendingJob[]): Promise<void>;
  /** Waiting, active, delayed and failed counts per queue (for /metrics). */
  depths(): Promise<Record<QueueName, Record<'waiting' | 'active' | 'delayed' | 'failed', number>>>;
  close(): Promise<void>;
}

// Done jobs are kept an hour so a duplicate add with the same id is still recognised; failed ones a
// week, for whoever investigates.
const retention = { removeOnComplete: { age: 3600, count: 10_000 }, removeOnFail: { age: 7 * 24 * 3600 } };

/**
 * BullMQ's exponential backoff has no ceiling; jobs whose spec has `maxBackoffMs` use this strategy
 * instead, which every worker made by `createJobWorker` knows.
 */
export const CAPPED_BACKOFF = 'capped-exponential';

export const cappedBackoffStrategy: BackoffStrategy = (attemptsMade, _type, _error, job) =>
  job && isJobName(job.name)
    ? retryDelayMs(job.name, attemptsMade)
    : Math.min(1000 * 2 ** attemptsMade, 60_000);

function jobOptions(name: JobName, options: EnqueueOptions = {}) {
  const spec = jobCatalog[name];
  const capped = 'maxBackoffMs' in spec;
  return {
    ...retention,
    attempts: spec.attempts,
    backoff: { type: capped ? CAPPED_BACKOFF : 'exponential', delay: spec.backoffMs },
    ...(options.jobId ? { jobId: options.jobId } : {}),
    ...(options.delayMs && options.delayMs > 0 ? { delay: Math.round(options.delayMs) } : {}),
  };
}

function validated(name: JobName, payload: unknown): Record<string, unknown> {
  return jobCatalog[name].payload.parse(payload) as Record<string, unknown>;
}

/**
 * `connection` should be a `command` client (no offline queue): while Redis is down an enqueue fails
 * at once, and the caller (the outbox relay) keeps the work in PostgreSQL and tries again later.
 */
export function createJobQueues(connection: Redis, prefix: string): JobQueues {
  const queues = new Map<QueueName, Queue>(
    queueNames.map((name) => {
      const queue = new Queue(name, { connection, prefix: `${prefix}:q` });
      // Connection errors are reported once by the client's watcher (see redis.ts); callers see the
      // failed enqueue itself.
      queue.on('error', () => {});
      return [name, queue];
    }),
  );
  const queueFor = (name: JobName) => queues.get(jobCatalog[name].queue)!;
  return {
    async enqueue(name, payload, options) {
      await queueFor(name).add(name, validated(name, payload), jobOptions(name, options));
    },
    async enqueueMany(jobs) {
      const byQueue = new Map<
        Queue,
        Array<{ name: string; data: unknown; opts: ReturnType<typeof jobOptions> }>
      >();
      for (const job of jobs) {
        const queue = queueFor(job.name);
        const list = byQueue.get(queue) ?? [];
        list.push({
          name: job.name,
          data: validated(job.name, job.payload),
          opts: jobOptions(job.name, job.options),
        });
        byQueue.set(queue, list);
      }
      for (const [queue, list] of byQueue) await queue.addBulk(list);
    },
    async depths() {
      const entries = await Promise.all(
        queueNames.map(async (name) => {
          const counts = await queues.get(name)!.getJobCounts('waiting', 'active', 'delayed', 'failed');
          return [name, counts] as const;
        }),
      );
      return Object.fromEntries(entries) as Awaited<ReturnType<JobQueues['depths']>>;
    },
    async close() {
      await Promise.all([...queues.values()].map((queue) => queue.close()));
    },
  };
}
