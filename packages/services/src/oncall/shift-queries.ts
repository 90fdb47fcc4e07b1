import { scheduleOverrides, schedules, users } from '@firebreak/db';
import type { FinalShift as DomainShift, OnCallPerson } from '@firebreak/domain';
import { AppError, type FinalShift, type ScheduleOverride, type ShiftWindowQuery } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { loadFinalShifts } from './final-shifts';
import { presentOverride } from './present-override';
import { notFound } from './write-errors';

const DEFAULT_WINDOW_MS = 14 * 86_400_000;
const MAX_WINDOW_MS = 90 * 86_400_000;

/**
 * The window of a shift query: `from` defaults to now, `to` to 14 days after `from`. The schema checks
 * the pair when both are given; a default can still make an empty or too-long window.
 */
export function shiftWindow(query: ShiftWindowQuery, now: Date): { from: Date; to: Date } {
  const from = query.from ? new Date(query.from) : now;
  const to = query.to ? new Date(query.to) : new Date(from.getTime() + DEFAULT_WINDOW_MS);
  const span = to.getTime() - from.getTime();
  if (span <= 0 || span > MAX_WINDOW_MS) {
    throw new AppError('validation_failed', 'The request is not valid.', [
      { path: 'to', message: span <= 0 ? 'to must be after from' : 'the window is at most 90 days' },
    ]);
  }
  return { from, to };
}

export function presentShift(scheduleId: string, shift: DomainShift<OnCallPerson>): FinalShift {
  return {
    user: { id: shift.person.user_id, name: shift.person.name },
    starts_at: shift.start.toISOString(),
    ends_at: shift.end.toISOString(),
    schedule_id: scheduleId,
    source: shift.source,
    ...(shift.layer_name !== undefined ? { layer_name: shift.layer_name } : {}),
    ...(shift.covering_for ? { covering_for: shift.covering_for } : {}),
  };
}

/** `GET /api/v1/schedules/{id}/shifts`: who is on call when, overrides applied. */
export async function scheduleShifts(
  ctx: ServiceContext,
  scheduleId: string,
  window: { from: Date; to: Date },
): Promise<FinalShift[]> {
  const [found] = await loadFinalShifts(ctx.sql, window.from, window.to, [scheduleId]);
  if (!found) throw notFound('schedule', scheduleId);
  return found.shifts.map((shift) => presentShift(scheduleId, shift));
}

/**
 * `GET /api/v1/users/{id}/shifts`: one person's shifts in every schedule, by start. There are tens of
 * schedules, so every one is computed and the person's shifts kept.
 */
export async function userShifts(
  ctx: ServiceContext,
  userId: string,
  window: { from: Date; to: Date },
): Promise<FinalShift[]> {
  if (!(await users.findUserById(ctx.sql, userId))) throw notFound('user', userId);
  // Across schedules: one of absurdly short turns must not make everyone's answer fail.
  const all = await loadFinalShifts(ctx.sql, window.from, window.to, undefined, { skipTooMany: true });
  return all
    .flatMap(({ schedule, shifts }) =>
      shifts.filter((s) => s.person.user_id === userId).map((s) => presentShift(schedule.id, s)),
    )
    .sort((a, b) => a.starts_at.localeCompare(b.starts_at) || a.schedule_id.localeCompare(b.schedule_id));
}

/** `GET /api/v1/schedules/{id}/overrides`: the overrides overlapping the window, by start. */
export async function listOverrides(
  ctx: ServiceContext,
  scheduleId: string,
  window: { from: Date; to: Date },
): Promise<ScheduleOverride[]> {
  if (!(await schedules.findSchedule(ctx.sql, scheduleId))) throw notFound('schedule', scheduleId);
  const rows = await scheduleOverrides.findOverrides(ctx.sql, [scheduleId], window.from, window.to);
  return rows.map(presentOverride);
}
