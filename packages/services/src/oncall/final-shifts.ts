import { type Queryable, scheduleOverrides, schedules, scheduleUnavailability } from '@firebreak/db';
import {
  type FinalShift,
  finalOnCallAt,
  finalShifts,
  type OnCallPerson,
  type ScheduleOverride,
  TooManyShiftsError,
  type Unavailability,
} from '@firebreak/domain';
import { AppError } from '@firebreak/schema';

/**
 * Schedules as the on-call maths see them: layers from the schedule, unavailability and overrides from
 * their tables (docs/schedules.md#overrides, docs/schedules.md#unavailability). Everything that asks who
 * is on call comes through here, so the API, escalations, notices and calendars agree. Reads through
 * the caller's `sql`, so the escalation engine can ask inside the transaction that holds its locks.
 */

export interface ScheduleShifts {
  schedule: schedules.ScheduleRecord;
  shifts: FinalShift<OnCallPerson>[];
}

export function toDomainOverride(row: scheduleOverrides.OverrideRow): ScheduleOverride {
  return {
    id: row.id,
    person: { user_id: row.user_id, name: row.user_name },
    replaces_user_id: row.replaces_user_id,
    starts_at: row.starts_at,
    ends_at: row.ends_at,
    created_at: row.created_at,
  };
}

export function toDomainUnavailability(row: scheduleUnavailability.UnavailabilityRow): Unavailability {
  return { user_id: row.user_id, starts_at: row.starts_at, ends_at: row.ends_at };
}

/**
 * The most layer turns one schedule may add to one answer, so that no window asks for unbounded work:
 * 90 days of 15-minute turns fit; a one-minute rotation does not.
 */
export const MAX_SHIFTS_PER_SCHEDULE = 10_000;

/**
 * The final shifts of these schedules (all of them without `ids`) in [from, to), clipped to it. A
 * schedule with more turns in the window than MAX_SHIFTS_PER_SCHEDULE is a 400 asking for a shorter
 * window, or, with `skipTooMany` (answers across schedules, the notice planning), left out.
 */
export async function loadFinalShifts(
  sql: Queryable,
  from: Date,
  to: Date,
  ids?: string[],
  options: { skipTooMany?: boolean } = {},
): Promise<ScheduleShifts[]> {
  const records = await schedules.findSchedules(sql, ids ? { ids } : {});
  const overrides = await scheduleOverrides.findOverrides(
    sql,
    records.map((r) => r.id),
    from,
    to,
  );
  const ranges = await scheduleUnavailability.findUnavailability(
    sql,
    records.map((r) => r.id),
    from,
    to,
  );
  return records.flatMap((schedule) => {
    const own = overrides.filter((o) => o.schedule_id === schedule.id).map(toDomainOverride);
    const away = ranges.filter((r) => r.schedule_id === schedule.id).map(toDomainUnavailability);
    try {
      return [{ schedule, shifts: finalShifts(schedule, own, from, to, MAX_SHIFTS_PER_SCHEDULE, away) }];
    } catch (error) {
      if (!(error instanceof TooManyShiftsError)) throw error;
      if (options.skipTooMany) return [];
      throw new AppError('validation_failed', 'The request is not valid.', [
        {
          path: 'to',
          message: `schedule "${schedule.name}" has more than ${error.limit} shifts in this window; ask for a shorter one`,
        },
      ]);
    }
  });
}

/**
 * Who is on call in the schedule at `at`, unavailability and overrides applied; undefined for an
 * unknown schedule or nobody.
 */
export async function finalOnCallPerson(
  sql: Queryable,
  scheduleId: string,
  at: Date,
): Promise<{ schedule: schedules.ScheduleRecord; person: OnCallPerson | undefined } | undefined> {
  const schedule = await schedules.findSchedule(sql, scheduleId);
  if (!schedule) return undefined;
  const after = new Date(at.getTime() + 1);
  const overrides = await scheduleOverrides.findOverrides(sql, [scheduleId], at, after);
  const away = await scheduleUnavailability.findUnavailability(sql, [scheduleId], at, after);
  const final = finalOnCallAt(
    schedule,
    overrides.map(toDomainOverride),
    at,
    away.map(toDomainUnavailability),
  );
  return { schedule, person: final?.person };
}
