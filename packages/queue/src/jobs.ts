import { z } from 'zod';

export const queueNames = ['chat', 'escalation', 'ai'] as const;
export type QueueName = (typeof queueNames)[number];

interface JobSpec<Q extends QueueName, P extends z.ZodType> {
  queue: Q;
  payload: P;
  /** Tries before the job is failed for good. */
  attempts: number;
  /** First retry delay; doubles each time. */
  backoffMs: number;
}

const spec = <Q extends QueueName, P extends z.ZodType>(s: JobSpec<Q, P>) => s;

/**
 * The job catalog: every kind of background work, its queue, its payload and its retry policy. One
 * queue per class of work, so a slow AI call never delays a page (ARCHITECTURE.md). Payloads carry
 * ids, not documents: a job re-reads the current state and acts only if the state still calls for it.
 */
export const jobCatalog = {
  /** Open the incident's channel, set its topic, post the incident card. */
  'chat.open_channel': spec({
    queue: 'chat',
    payload: z.object({ incident_id: z.uuid() }),
    attempts: 8,
    backoffMs: 1000,
  }),
  /** Post one timeline entry (note, status, severity, commander change…) to the incident's channel. */
  'chat.post_timeline_entry': spec({
    queue: 'chat',
    payload: z.object({ incident_id: z.uuid(), entry_id: z.uuid() }),
    attempts: 8,
    backoffMs: 1000,
  }),
  /** After the resolution was posted: rename the channel with the `[RESOLVED]` prefix. */
  'chat.mark_resolved': spec({
    queue: 'chat',
    payload: z.object({ incident_id: z.uuid() }),
    attempts: 8,
    backoffMs: 1000,
  }),
  /** Tell the people of one escalation step (direct messages, a mention in the channel). */
  'chat.escalation_notice': spec({
    queue: 'chat',
    payload: z.object({ incident_id: z.uuid(), entry_id: z.uuid() }),
    attempts: 8,
    backoffMs: 1000,
  }),
  /** Wake-up call: an incident's escalation may be due. The deadline itself lives in PostgreSQL. */
  'escalation.check': spec({
    queue: 'escalation',
    payload: z.object({ incident_id: z.uuid() }),
    attempts: 5,
    backoffMs: 500,
  }),
} as const;

export type JobName = keyof typeof jobCatalog;
export type JobPayload<N extends JobName> = z.infer<(typeof jobCatalog)[N]['payload']>;

export function isJobName(name: string): name is JobName {
  return Object.hasOwn(jobCatalog, name);
}

export function queueOf(name: JobName): QueueName {
  return jobCatalog[name].queue;
}
