import { type JobName, type JobSpec, jobCatalog, type QueueName } from '@firebreak/schema';
import type { z } from 'zod';

export {
  isJobName,
  type JobName,
  type JobPayload,
  type JobsOf,
  jobCatalog,
  type QueueName,
  queueNames,
} from '@firebreak/schema';

/** Delay before the next try after `attemptsMade` failed ones: doubling from `backoffMs`, capped. */
export function retryDelayMs(name: JobName, attemptsMade: number): number {
  const spec: JobSpec<QueueName, z.ZodType> = jobCatalog[name];
  const delay = spec.backoffMs * 2 ** Math.max(0, attemptsMade - 1);
  return Math.round(spec.maxBackoffMs === undefined ? delay : Math.min(delay, spec.maxBackoffMs));
}
