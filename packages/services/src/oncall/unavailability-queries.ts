import { schedules, scheduleUnavailability } from '@firebreak/db';
import type { ScheduleUnavailability } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { presentUnavailability } from './present-unavailability';
import { notFound } from './write-errors';

/** `GET /api/v1/schedules/{id}/unavailability`: the ranges overlapping the window, by start. */
export async function listUnavailability(
  ctx: ServiceContext,
  scheduleId: string,
  window: { from: Date; to: Date },
): Promise<ScheduleUnavailability[]> {
  if (!(await schedules.findSchedule(ctx.sql, scheduleId))) throw notFound('schedule', scheduleId);
  const rows = await scheduleUnavailability.findUnavailability(ctx.sql, [scheduleId], window.from, window.to);
  return rows.map(presentUnavailability);
}
