import { z } from 'zod';

/** `{id}` of a stored record. Anything but a UUID cannot name one, so it answers 404, not 400. */
export const IdParams = z.object({
  id: z
    .guid({ error: (issue) => `No record with id "${String(issue.input)}".` })
    .toLowerCase()
    .meta({ description: 'The record’s UUID' }),
});

/** `{id}` of an incident: its UUID or its number (`/incidents/42`); anything else names none (404). */
export const IncidentParams = z.object({
  id: z
    .string()
    .regex(/^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{1,9})$/i, {
      error: (issue) => `No incident "${String(issue.input)}".`,
    })
    .meta({ description: 'Incident UUID or number' }),
});
