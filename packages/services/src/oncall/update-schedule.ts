import { schedules } from '@firebreak/db';
import type { Schedule, UpdateScheduleInput } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { planShiftNotices } from './plan-shift-notices';
import { presentSchedule } from './present';
import { requireKnownTimeZone } from './require-known-time-zone';
import { scheduleConflicts, toNewLayers } from './schedule-layers';
import { notFound, refusingConflicts } from './write-errors';

/**
 * `PATCH /api/v1/schedules/{id}` (admin). `layers`, when given, replaces them all. Rotation starts are
 * stored as instants, so a new time zone alone moves no start; it changes the wall clock that
 * day-aligned rotations keep from then on.
 */
export async function updateSchedule(
  ctx: ServiceContext,
  id: string,
  input: UpdateScheduleInput,
  origin: ChangeOrigin = systemOrigin,
): Promise<Schedule> {
  if (input.timezone !== undefined) await requireKnownTimeZone(ctx.sql, input.timezone);
  const write = ctx.sql.begin(async (tx) => {
    const current = await schedules.lockSchedule(tx, id);
    if (!current) throw notFound('schedule', id);
    const before = (await schedules.findSchedule(tx, id))!;
    const timezone = input.timezone ?? current.timezone;
    const layers = input.layers ? await toNewLayers(tx, input.layers, timezone) : undefined;
    const fields = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.timezone !== undefined ? { timezone: input.timezone } : {}),
    };
    await schedules.updateSchedule(tx, id, fields, ctx.now());
    if (layers) await schedules.replaceLayers(tx, id, layers);
    const after = (await schedules.findSchedule(tx, id))!;
    await recordAudit(tx, ctx, {
      origin,
      entity: 'schedule',
      entityId: id,
      action: 'update',
      before: presentSchedule(before),
      after: presentSchedule(after),
    });
    // New layers or a new zone move hand-overs: the shift notices follow in the same transaction.
    if (layers || input.timezone !== undefined) await planShiftNotices(tx, ctx.now(), [id]);
    return after;
  });
  const record = await refusingConflicts(write, scheduleConflicts(input.name));
  ctx.logger.info({ schedule_id: id, fields: Object.keys(input) }, 'schedule changed');
  return presentSchedule(record);
}
