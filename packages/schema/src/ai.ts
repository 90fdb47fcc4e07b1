import { z } from 'zod';

/** `POST /api/v1/handoff-digests`: the shift window; defaults to the last 12 hours. */
export const HandoffDigestInput = z
  .object({
    since: z.iso.datetime({ offset: true }).optional(),
    until: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((input) => !input.since || !input.until || Date.parse(input.since) < Date.parse(input.until), {
    message: 'since must be before until',
    path: ['since'],
  });
export type HandoffDigestInput = z.infer<typeof HandoffDigestInput>;

export const AiJobStatus = z.enum(['pending', 'done', 'failed']);

export const AiJob = z.object({
  id: z.uuid(),
  kind: z.enum(['summary', 'postmortem', 'handoff_digest', 'chat_answer']),
  incident_id: z.uuid().nullable(),
  status: AiJobStatus,
  error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type AiJob = z.infer<typeof AiJob>;

export const HandoffDigest = z.object({
  id: z.uuid(),
  status: AiJobStatus,
  content: z.string().nullable(),
  since: z.string(),
  until: z.string(),
  error: z.string().nullable(),
  created_at: z.string(),
});
export type HandoffDigest = z.infer<typeof HandoffDigest>;

/** The post-mortem document and its AI draft: postmortems.ts. */
