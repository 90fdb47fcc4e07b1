import { schedules } from '@firebreak/db';
import type { CreateScheduleInput, Schedule } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { planShiftNotices } from './plan-shift-notices';
import { presentSchedule } from './present';
import { requireKnownTimeZone } from './require-known-time-zone';
import { scheduleConflicts, toNewLayers } from './schedule-layers';
import { refusingConflicts } from './write-errors';

/** `POST /api/v1/schedules` (admin): the schedule, its layers and participants in one transaction. */
export async function createSchedule(
  ctx: ServiceContext,
  input: CreateScheduleInput,
  origin: ChangeOrigin = systemOrigin,
): Promise<Schedule> {
  await requireKnownTimeZone(ctx.sql, input.timezone);
  const write = ctx.sql.begin(async (tx) => {
    const layers = await toNewLayers(tx, input.layers, input.timezone);
    const row = await schedules.insertSchedule(tx, {
      name: input.name,
      timezone: input.timezone,
      at: ctx.now(),
    });
    await schedules.replaceLayers(tx, row.id, layers);
    const created = (await schedules.findSchedule(tx, row.id))!;
    await recordAudit(tx, ctx, {
      origin,
      entity: 'schedule',
      entityId: row.id,
      action: 'create',
      before: null,
      after: presentSchedule(created),
    });
    await planShiftNotices(tx, ctx.now(), [row.id]);
    return created;
  });
  const record = await refusingConflicts(write, scheduleConflicts(input.name));
  ctx.logger.info({ schedule_id: record.id, layers: record.layers.length }, 'schedule created');
  return presentSchedule(record);
}
