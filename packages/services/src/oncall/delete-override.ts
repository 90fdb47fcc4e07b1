import { scheduleOverrides, schedules } from '@firebreak/db';
import { AppError } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { Principal } from '../auth/principal';
import type { ServiceContext } from '../context';
import { assertMayDeleteOverride } from './override-access';
import { planShiftNotices } from './plan-shift-notices';
import { presentOverride } from './present-override';
import { notFound } from './write-errors';

/** `DELETE /api/v1/schedules/{id}/overrides/{override_id}` (docs/api.md#overrides). */
export async function deleteOverride(
  ctx: ServiceContext,
  principal: Principal,
  scheduleId: string,
  overrideId: string,
  origin: ChangeOrigin = systemOrigin,
): Promise<void> {
  await ctx.sql.begin(async (tx) => {
    if (!(await schedules.lockSchedule(tx, scheduleId))) throw notFound('schedule', scheduleId);
    const row = await scheduleOverrides.lockOverride(tx, overrideId);
    if (!row || row.schedule_id !== scheduleId) {
      throw new AppError('not_found', `No override ${overrideId} in schedule ${scheduleId}.`);
    }
    assertMayDeleteOverride(principal, row.created_by);
    await scheduleOverrides.deleteOverride(tx, overrideId);
    await recordAudit(tx, ctx, {
      origin,
      entity: 'schedule_override',
      entityId: overrideId,
      action: 'delete',
      before: presentOverride(row),
      after: null,
    });
    await planShiftNotices(tx, ctx.now(), [scheduleId]);
  });
  ctx.logger.info({ schedule_id: scheduleId, override_id: overrideId }, 'schedule override deleted');
}
