// The job catalog is plain data (names, zod payloads, retry policies), so it lives with the other
// schemas: the outbox in packages/db types its rows against it without depending on the queue package.
import { z } from 'zod';

export const queueNames = ['chat', 'escalation', 'ai', 'webhooks', 'notify'] as const;
export type QueueName = (typeof queueNames)[number];

export interface JobSpec<Q extends QueueName, P extends z.ZodType> {
  queue: Q;
  payload: P;
  /** Tries before the job is failed for good. */
  attempts: number;
  /** First retry delay; doubles each time. */
  backoffMs: number;
  /** Longest retry delay; unset means no cap. */
  maxBackoffMs?: number;
}

const spec = <Q extends QueueName, P extends z.ZodType>(s: JobSpec<Q, P>) => s;

// A chat outage of several minutes must be ridden out (the channel still appears once chat is back),
// without hammering it: 1 s, 2 s, 4 s… capped at 60 s, 25 tries ≈ 19 minutes. Rate limits do not count
// as tries: those jobs are re-scheduled for the `Retry-After` moment instead.
const chatRetries = { attempts: 25, backoffMs: 1000, maxBackoffMs: 60_000 };

/**
 * The job catalog: every kind of background work, its queue, its payload and its retry policy. One
 * queue per class of work, so a slow AI call never delays a page (docs/architecture.md). Payloads carry
 * ids, not documents: a job re-reads the current state and acts only if the state still calls for it.
 */
export const jobCatalog = {
  /** Open the incident's channel, set its topic, post the incident card. */
  'chat.open_channel': spec({
    queue: 'chat',
    payload: z.object({ incident_id: z.uuid() }),
    ...chatRetries,
  }),
  /** Post one timeline entry (note, status, severity, commander change…) to the incident's channel. */
  'chat.post_timeline_entry': spec({
    queue: 'chat',
    payload: z.object({ incident_id: z.uuid(), entry_id: z.uuid() }),
    ...chatRetries,
  }),
  /** After the resolution was posted: rename the channel with the `[RESOLVED]` prefix. */
  'chat.mark_resolved': spec({
    queue: 'chat',
    payload: z.object({ incident_id: z.uuid() }),
    ...chatRetries,
  }),
  /** Tell the people of one escalation step (direct messages, a mention in the channel). */
  'chat.escalation_notice': spec({
    queue: 'chat',
    payload: z.object({ incident_id: z.uuid(), entry_id: z.uuid() }),
    ...chatRetries,
  }),
  /**
   * A direct message telling someone their shift has started (`shift_notices` row `notice_id`). The
   * row is the timer and records the outcome, so a retried or doubled job sends nothing twice.
   */
  'chat.shift_notice': spec({
    queue: 'chat',
    payload: z.object({ notice_id: z.uuid() }),
    ...chatRetries,
  }),
  /** Post the answer to a question asked of the bot (`chat_questions` row) in the question's thread. */
  'chat.answer_question': spec({
    queue: 'chat',
    payload: z.object({ question_id: z.uuid() }),
    ...chatRetries,
  }),
  /** Wake-up call: an incident's escalation may be due. The deadline itself lives in PostgreSQL. */
  'escalation.check': spec({
    queue: 'escalation',
    payload: z.object({ incident_id: z.uuid() }),
    attempts: 5,
    backoffMs: 500,
  }),
  /** Summarise an incident (`ai_requests` row `request_id`); the result is an `ai_summary` entry. */
  'ai.summarize': spec({
    queue: 'ai',
    payload: z.object({ request_id: z.uuid() }),
    attempts: 3,
    backoffMs: 5000,
  }),
  /** Draft (or redraft) a resolved incident's post-mortem. */
  'ai.postmortem': spec({
    queue: 'ai',
    payload: z.object({ request_id: z.uuid() }),
    attempts: 3,
    backoffMs: 5000,
  }),
  /** Answer a question asked of the bot in an incident channel, from that incident's record. */
  'ai.chat_answer': spec({
    queue: 'ai',
    payload: z.object({ request_id: z.uuid() }),
    attempts: 3,
    backoffMs: 5000,
  }),
  /** Write a shift-handoff digest over its window. */
  'ai.handoff_digest': spec({
    queue: 'ai',
    payload: z.object({ request_id: z.uuid() }),
    attempts: 3,
    backoffMs: 5000,
  }),
  /**
   * Wake-up call: a line of outgoing-webhook deliveries (one webhook, one incident) may have one due.
   * Deliveries and their retry times live in PostgreSQL (docs/integrations/outgoing-webhooks.md); the
   * job's own retries only cover a failure of ours (the database away), and the reconciler covers a
   * job that gave up or was lost.
   */
  'webhook.deliver': spec({
    queue: 'webhooks',
    payload: z.object({ webhook_id: z.uuid(), incident_id: z.uuid() }),
    attempts: 3,
    backoffMs: 1000,
  }),
  /**
   * Wake-up call: a personal page (`page_deliveries` row) is due (docs/paging.md). The row is the
   * timer and its state the truth; the job's own retries only cover a failure of ours (the database
   * away), and the reconciler queues a new wake-up for a row whose job was lost.
   */
  'notify.deliver': spec({
    queue: 'notify',
    payload: z.object({ delivery_id: z.uuid() }),
    attempts: 3,
    backoffMs: 1000,
  }),
  /**
   * Send a contact method its verification code. The code is derived again from the row's nonce and
   * the paging key, so it is never written to the outbox or Redis (docs/paging.md#verification).
   */
  'notify.send_code': spec({
    queue: 'notify',
    payload: z.object({ contact_method_id: z.uuid(), nonce: z.string().min(1).max(100) }),
    attempts: 3,
    backoffMs: 2000,
  }),
  /** Send a test notification through one contact method. */
  'notify.test': spec({
    queue: 'notify',
    payload: z.object({ contact_method_id: z.uuid() }),
    attempts: 3,
    backoffMs: 2000,
  }),
} as const;

export type JobName = keyof typeof jobCatalog;
export type JobPayload<N extends JobName> = z.infer<(typeof jobCatalog)[N]['payload']>;
/** The names of the jobs that run on queue `Q`. */
export type JobsOf<Q extends QueueName> = {
  [N in JobName]: (typeof jobCatalog)[N]['queue'] extends Q ? N : never;
}[JobName];

export function isJobName(name: string): name is JobName {
  return Object.hasOwn(jobCatalog, name);
}
