import { z } from 'zod';

/**
 * Unavailability in schedules (docs/api.md#unavailability, docs/schedules.md#unavailability): a range in
 * which a person takes no turn in a schedule's layers; the next available participant of the layer
 * takes it instead.
 */

/** A range lasts at most this long: longer absences are a change of the layers, not a gap in them. */
export const MAX_UNAVAILABILITY_DAYS = 90;
const MAX_RANGE_MS = MAX_UNAVAILABILITY_DAYS * 86_400_000;

const Timestamp = z.iso.datetime({ offset: true });

export const CreateUnavailabilityInput = z
  .object({
    /** Who is unavailable: themselves for a member; anyone taking part in the layers for an admin. */
    user_id: z.uuid(),
    starts_at: Timestamp,
    ends_at: Timestamp,
  })
  .refine((input) => Date.parse(input.ends_at) > Date.parse(input.starts_at), {
    message: 'ends_at must be after starts_at',
    path: ['ends_at'],
  })
  .refine((input) => Date.parse(input.ends_at) - Date.parse(input.starts_at) <= MAX_RANGE_MS, {
    message: `unavailability lasts at most ${MAX_UNAVAILABILITY_DAYS} days; for longer, change the schedule's layers`,
    path: ['ends_at'],
  });
export type CreateUnavailabilityInput = z.infer<typeof CreateUnavailabilityInput>;

export const ScheduleUnavailability = z.object({
  id: z.uuid(),
  schedule_id: z.uuid(),
  user: z.object({ id: z.uuid(), name: z.string() }),
  starts_at: Timestamp,
  ends_at: Timestamp,
  /** The user who created it; null once that user is removed. */
  created_by: z.uuid().nullable(),
  created_at: Timestamp,
});
export type ScheduleUnavailability = z.infer<typeof ScheduleUnavailability>;

/**
 * The answer to a create: the range, and whether the schedule has nobody on call at some instant of it
 * from now on (every participant of every layer away then, or no layer running), so that whoever marks
 * it can arrange cover.
 */
export const CreatedUnavailability = ScheduleUnavailability.extend({ leaves_gap: z.boolean() });
export type CreatedUnavailability = z.infer<typeof CreatedUnavailability>;

export const ScheduleUnavailabilityList = z.object({ unavailability: z.array(ScheduleUnavailability) });
export type ScheduleUnavailabilityList = z.infer<typeof ScheduleUnavailabilityList>;

/**
 * On a final shift: the layer gave this turn to the next participant because the rotation's own pick
 * is unavailable.
 */
export const CoveringFor = z.object({
  user_id: z.uuid(),
  name: z.string(),
  reason: z.enum(['unavailable']),
});
export type CoveringFor = z.infer<typeof CoveringFor>;
