import { z } from 'zod';
import { CoveringFor } from './unavailability';

/**
 * Overrides, final shifts, calendar feeds and the user's own profile (docs/api.md#overrides,
 * docs/schedules.md). Windows are bounded so that one request cannot ask for years of shifts.
 */

export const MAX_SHIFT_WINDOW_DAYS = 90;
const DAY_MS = 86_400_000;
const MAX_WINDOW_MS = MAX_SHIFT_WINDOW_DAYS * DAY_MS;

// A `+` left unescaped in a query string arrives as a space (`?from=2026-03-29T09:00:00+02:00`).
const QueryTime = z.preprocess(
  (value) => (typeof value === 'string' ? value.replace(' ', '+') : value),
  z.iso.datetime({ offset: true }),
);
const Timestamp = z.iso.datetime({ offset: true });

export const CreateOverrideInput = z
  .object({
    /** Who is on call during the window. */
    user_id: z.uuid(),
    starts_at: Timestamp,
    ends_at: Timestamp,
    /** Take only this person's time inside the window; absent or null: the whole window. */
    replaces_user_id: z.uuid().nullable().optional(),
  })
  .refine((input) => Date.parse(input.ends_at) > Date.parse(input.starts_at), {
    message: 'ends_at must be after starts_at',
    path: ['ends_at'],
  })
  .refine((input) => Date.parse(input.ends_at) - Date.parse(input.starts_at) <= MAX_WINDOW_MS, {
    message: `an override lasts at most ${MAX_SHIFT_WINDOW_DAYS} days; for longer, change the schedule's layers`,
    path: ['ends_at'],
  })
  .refine((input) => input.replaces_user_id !== input.user_id, {
    message: 'must differ from user_id',
    path: ['replaces_user_id'],
  });
export type CreateOverrideInput = z.infer<typeof CreateOverrideInput>;

const OverridePerson = z.object({ id: z.uuid(), name: z.string() });

export const ScheduleOverride = z.object({
  id: z.uuid(),
  schedule_id: z.uuid(),
  user: OverridePerson,
  replaces_user_id: z.uuid().nullable(),
  starts_at: Timestamp,
  ends_at: Timestamp,
  /** The user who created it; null for an imported one, or once that user is removed. */
  created_by: z.uuid().nullable(),
  created_at: Timestamp,
});
export type ScheduleOverride = z.infer<typeof ScheduleOverride>;

/** `from` defaults to now, `to` to 14 days after `from`; at most 90 days apart. */
export const ShiftWindowQuery = z
  .object({ from: QueryTime.optional(), to: QueryTime.optional() })
  .refine((q) => !q.from || !q.to || Date.parse(q.to) > Date.parse(q.from), {
    message: 'to must be after from',
    path: ['to'],
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.to) - Date.parse(q.from) <= MAX_WINDOW_MS, {
    message: `the window is at most ${MAX_SHIFT_WINDOW_DAYS} days`,
    path: ['to'],
  });
export type ShiftWindowQuery = z.infer<typeof ShiftWindowQuery>;

export const FinalShift = z.object({
  /** id is null for a participant without an account (a name kept on the rotation). */
  user: z.object({ id: z.uuid().nullable(), name: z.string() }),
  starts_at: Timestamp,
  ends_at: Timestamp,
  schedule_id: z.uuid(),
  source: z.enum(['layer', 'override']),
  /** The layer's name, for a layer shift. */
  layer_name: z.string().optional(),
  /** A layer shift given to the next participant because the rotation's own pick is unavailable. */
  covering_for: CoveringFor.optional(),
});
export type FinalShift = z.infer<typeof FinalShift>;

export const FinalShiftList = z.object({ shifts: z.array(FinalShift) });
export type FinalShiftList = z.infer<typeof FinalShiftList>;

export const ScheduleOverrideList = z.object({ overrides: z.array(ScheduleOverride) });
export type ScheduleOverrideList = z.infer<typeof ScheduleOverrideList>;

export const CalendarFeed = z.object({
  /** The secret address of the feed: whoever holds it can read the shifts, without logging in. */
  url: z.string(),
  /** The token's last characters, to tell feeds apart. */
  token_hint: z.string(),
});
export type CalendarFeed = z.infer<typeof CalendarFeed>;

/** `PATCH /api/v1/users/me`: what people may change about themselves. */
export const UpdateOwnProfileInput = z
  .object({ shift_notices: z.boolean().optional() })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: 'give shift_notices',
  });
export type UpdateOwnProfileInput = z.infer<typeof UpdateOwnProfileInput>;
