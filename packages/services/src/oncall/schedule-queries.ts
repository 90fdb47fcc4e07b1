import { schedules } from '@firebreak/db';
import type { Schedule } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { presentSchedule } from './present';
import { notFound } from './write-errors';

/** By name; there are tens of schedules, not thousands, so the list has no pages. */
export async function listSchedules(ctx: ServiceContext): Promise<Schedule[]> {
  return (await schedules.findSchedules(ctx.sql)).map(presentSchedule);
}

export async function getSchedule(ctx: ServiceContext, id: string): Promise<Schedule> {
  const record = await schedules.findSchedule(ctx.sql, id);
  if (!record) throw notFound('schedule', id);
  return presentSchedule(record);
}
