import { schedules, scheduleUnavailability } from '@firebreak/db';
import { AppError } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { Principal } from '../auth/principal';
import type { ServiceContext } from '../context';
import { planShiftNotices } from './plan-shift-notices';
import { presentUnavailability } from './present-unavailability';
import { assertMayWriteUnavailability } from './unavailability-access';
import { notFound } from './write-errors';

/** `DELETE /api/v1/schedules/{id}/unavailability/{unavailability_id}` (docs/api.md#unavailability). */
export async function deleteUnavailability(
  ctx: ServiceContext,
  principal: Principal,
  scheduleId: string,
  unavailabilityId: string,
  origin: ChangeOrigin = systemOrigin,
): Promise<void> {
  await ctx.sql.begin(async (tx) => {
    if (!(await schedules.lockSchedule(tx, scheduleId))) throw notFound('schedule', scheduleId);
    const row = await scheduleUnavailability.lockUnavailability(tx, unavailabilityId);
    if (!row || row.schedule_id !== scheduleId) {
      throw new AppError('not_found', `No unavailability ${unavailabilityId} in schedule ${scheduleId}.`);
    }
    assertMayWriteUnavailability(principal, row.user_id);
    await scheduleUnavailability.deleteUnavailability(tx, unavailabilityId);
    await recordAudit(tx, ctx, {
      origin,
      entity: 'schedule_unavailability',
      entityId: unavailabilityId,
      action: 'delete',
      before: presentUnavailability(row),
      after: null,
    });
    await planShiftNotices(tx, ctx.now(), [scheduleId]);
  });
  ctx.logger.info(
    { schedule_id: scheduleId, unavailability_id: unavailabilityId },
    'schedule unavailability deleted',
  );
}
