import { type Queryable, shiftNotices } from '@firebreak/db';
import {
  continuousSpans,
  noticesDue,
  SHIFT_NOTICE_END_LOOKAHEAD_MS,
  SHIFT_NOTICE_HORIZON_MS,
  SHIFT_NOTICE_LATE_MS,
} from '@firebreak/domain';
import { loadFinalShifts } from './final-shifts';

/**
 * Rewrites the planned shift notices (docs/schedules.md#shift-notices) of these schedules, or of all,
 * from their final shifts. Called in the transaction of every change of a schedule's layers or
 * overrides, so the next notice follows the change at once, and by the worker every minute, which moves
 * the planning horizon along as rotations turn.
 */
export async function planShiftNotices(sql: Queryable, now: Date, scheduleIds?: string[]): Promise<number> {
  // From a day before the earliest start we plan: a span that began earlier then shows its real start.
  const from = new Date(now.getTime() - SHIFT_NOTICE_LATE_MS - 86_400_000);
  const to = new Date(now.getTime() + SHIFT_NOTICE_HORIZON_MS + SHIFT_NOTICE_END_LOOKAHEAD_MS);
  const planFrom = new Date(now.getTime() - SHIFT_NOTICE_LATE_MS);
  let planned = 0;
  // A schedule of very short turns (minutes) is left out: a message every few minutes helps nobody.
  for (const { schedule, shifts } of await loadFinalShifts(sql, from, to, scheduleIds, {
    skipTooMany: true,
  })) {
    const notices = noticesDue(continuousSpans(shifts), now);
    await shiftNotices.replanNotices(sql, schedule.id, planFrom, notices);
    planned += notices.length;
  }
  return planned;
}
