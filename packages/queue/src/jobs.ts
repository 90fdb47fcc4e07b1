import { z } from 'zod';

/**
 * The job catalog: every kind of background work, its queue and its payload. Payloads carry ids, not
 * documents (the worker re-reads the current state). Services write these names into the outbox; the
 * relay and the workers validate payloads against the same schemas.
 */
export const jobCatalog = {
  /** Open the incident's channel, set its topic, post the incident card. */
  'chat.open_channel': { queue: 'chat', payload: z.object({ incident_id: z.uuid() }) },
  /** Post one timeline entry (note, status, severity, commander change…) to the incident's channel. */
  'chat.post_timeline_entry': {
    queue: 'chat',
    payload: z.object({ incident_id: z.uuid(), entry_id: z.uuid() }),
  },
  /** After the resolution was posted: rename the channel with the `[RESOLVED]` prefix. */
  'chat.mark_resolved': { queue: 'chat', payload: z.object({ incident_id: z.uuid() }) },
} as const;

export type JobName = keyof typeof jobCatalog;
export type JobPayload<N extends JobName> = z.infer<(typeof jobCatalog)[N]['payload']>;
export type QueueName = (typeof jobCatalog)[JobName]['queue'];
