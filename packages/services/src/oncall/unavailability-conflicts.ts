import { type Queryable, scheduleOverrides, scheduleUnavailability } from '@firebreak/db';
import { AppError } from '@firebreak/schema';

/**
 * Unavailability and overrides must not contradict each other (docs/schedules.md#unavailability): an
 * override that puts a person on call says they are there, a range says they are not. Either one is
 * refused while the other exists, with 409 `unavailability_conflict` naming the one in the way. An
 * override that puts someone else in (even in place of the unavailable person) is no contradiction.
 * Nor may one person's ranges in a schedule overlap each other, or more than
 * `MAX_UNFINISHED_UNAVAILABILITY` of them be not yet over: every on-call answer for the schedule reads
 * its ranges, so what one person can store is bounded. Both writers hold the schedule's lock, so the
 * checks cannot race a concurrent write.
 */

/** Ranges of one person in one schedule that may be current or ahead at once. */
export const MAX_UNFINISHED_UNAVAILABILITY = 50;

const span = (startsAt: Date, endsAt: Date) => `from ${startsAt.toISOString()} to ${endsAt.toISOString()}`;

/** Before marking `userId` unavailable in [startsAt, endsAt): no override of theirs overlaps it. */
export async function refuseOverrideConflict(
  sql: Queryable,
  scheduleId: string,
  userId: string,
  startsAt: Date,
  endsAt: Date,
): Promise<void> {
  const overrides = await scheduleOverrides.findOverrides(sql, [scheduleId], startsAt, endsAt);
  const clash = overrides.find((o) => o.user_id === userId);
  if (!clash) return;
  throw new AppError(
    'unavailability_conflict',
    `Override ${clash.id} puts ${clash.user_name} on call ${span(clash.starts_at, clash.ends_at)}; delete it or choose another range.`,
    { override_id: clash.id, starts_at: clash.starts_at.toISOString(), ends_at: clash.ends_at.toISOString() },
  );
}

/** Before putting `userId` on call by an override in [startsAt, endsAt): they are not unavailable then. */
export async function refuseUnavailableOverride(
  sql: Queryable,
  scheduleId: string,
  userId: string,
  startsAt: Date,
  endsAt: Date,
): Promise<void> {
  const [clash] = await scheduleUnavailability.findUnavailability(
    sql,
    [scheduleId],
    startsAt,
    endsAt,
    userId,
  );
  if (!clash) return;
  throw new AppError(
    'unavailability_conflict',
    `${clash.user_name} is unavailable ${span(clash.starts_at, clash.ends_at)} (unavailability ${clash.id}); choose someone else or another window.`,
    {
      unavailability_id: clash.id,
      starts_at: clash.starts_at.toISOString(),
      ends_at: clash.ends_at.toISOString(),
    },
  );
}

/**
 * Before marking `userId` unavailable in [startsAt, endsAt): none of their ranges in this schedule
 * overlaps it (one range to extend or delete, not two to reconcile), and they have fewer than
 * `MAX_UNFINISHED_UNAVAILABILITY` that are not over at `now`.
 */
export async function refuseOwnRangeConflict(
  sql: Queryable,
  scheduleId: string,
  userId: string,
  startsAt: Date,
  endsAt: Date,
  now: Date,
): Promise<void> {
  const [clash] = await scheduleUnavailability.findUnavailability(
    sql,
    [scheduleId],
    startsAt,
    endsAt,
    userId,
  );
  if (clash) {
    throw new AppError(
      'unavailability_conflict',
      `${clash.user_name} is already unavailable ${span(clash.starts_at, clash.ends_at)} (unavailability ${clash.id}), which overlaps this range; delete it or choose a range that does not overlap.`,
      {
        unavailability_id: clash.id,
        starts_at: clash.starts_at.toISOString(),
        ends_at: clash.ends_at.toISOString(),
      },
    );
  }
  const count = await scheduleUnavailability.countUnfinishedUnavailability(sql, scheduleId, userId, now);
  if (count >= MAX_UNFINISHED_UNAVAILABILITY) {
    throw new AppError(
      'unavailability_conflict',
      `This person already has ${count} ranges in this schedule that are not over; at most ${MAX_UNFINISHED_UNAVAILABILITY} may be. Delete one, or mark a longer range instead of many short ones.`,
      { limit: MAX_UNFINISHED_UNAVAILABILITY },
    );
  }
}
