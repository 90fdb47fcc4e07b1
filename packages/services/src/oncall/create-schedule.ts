import { schedules } from '@firebreak/db';
import type { CreateScheduleInput, Schedule } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { presentSchedule } from './present';
import { scheduleConflicts, toNewLayers } from './schedule-layers';
import { refusingConflicts } from './write-errors';

/** `POST /api/v1/schedules` (admin): the schedule, its layers and participants in one transaction. */
export async function createSchedule(ctx: ServiceContext, input: CreateScheduleInput): Promise<Schedule> {
  const write = ctx.sql.begin(async (tx) => {
    const layers = await toNewLayers(tx, input.layers, input.timezone);
    const row = await schedules.insertSchedule(tx, {
      name: input.name,
      timezone: input.timezone,
      at: ctx.now(),
    });
    await schedules.replaceLayers(tx, row.id, layers);
    return (await schedules.findSchedule(tx, row.id))!;
  });
  const record = await refusingConflicts(write, scheduleConflicts(input.name));
  ctx.logger.info({ schedule_id: record.id, layers: record.layers.length }, 'schedule created');
  return presentSchedule(record);
}
