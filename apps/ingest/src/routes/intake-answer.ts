import { answer, errorAnswers } from '@firebreak/http';
import { z } from 'zod';

/** What every alert webhook answers once the alerts are stored and routed. */
export const IntakeAnswer = z.object({
  received: z.number(),
  created: z.number(),
  updated: z.number(),
  resolved: z.number(),
  suppressed: z.number(),
  incidents_created: z.number(),
  alerts: z.array(
    z.object({
      id: z.uuid(),
      external_id: z.string().nullable(),
      status: z.string(),
      incident_id: z.uuid().nullable(),
    }),
  ),
});

/**
 * The answers of an alert webhook. Never 429: senders drop it; overload is 503, which they retry.
 * 500 `database_unavailable` also asks for a retry.
 */
export const intakeAnswers = {
  200: answer('Recorded', IntakeAnswer),
  // 404: the fixed paths while turned off (fixed_webhooks_enabled: false), an unknown intake key.
  ...errorAnswers(400, 401, 404, 413, 415, 503),
};
