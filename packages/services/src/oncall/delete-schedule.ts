import { schedules } from '@firebreak/db';
import { AppError } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { presentSchedule } from './present';
import { notFound, refusingConflicts } from './write-errors';

/**
 * `DELETE /api/v1/schedules/{id}` (admin). A schedule that an escalation tier pages is not deleted
 * (409 naming the policies): silently dropping the tier would leave incidents paging nobody.
 */
export async function deleteSchedule(
  ctx: ServiceContext,
  id: string,
  origin: ChangeOrigin = systemOrigin,
): Promise<void> {
  const write = ctx.sql.begin(async (tx) => {
    if (!(await schedules.lockSchedule(tx, id))) throw notFound('schedule', id);
    const policies = await schedules.policiesUsingSchedule(tx, id);
    if (policies.length > 0) throw inUse(policies);
    const before = (await schedules.findSchedule(tx, id))!;
    await schedules.deleteSchedule(tx, id);
    await recordAudit(tx, ctx, {
      origin,
      entity: 'schedule',
      entityId: id,
      action: 'delete',
      before: presentSchedule(before),
      after: null,
    });
  });
  // The lock above makes the check reliable; the constraint stays the last word all the same.
  await refusingConflicts(write, {
    escalation_tiers_schedule_id_fkey: 'An escalation policy pages this schedule; change its tiers first.',
  });
  ctx.logger.info({ schedule_id: id }, 'schedule deleted');
}

function inUse(policies: string[]): AppError {
  const names = policies.map((name) => `"${name}"`).join(', ');
  return new AppError(
    'conflict',
    `Escalation policies page this schedule: ${names}. Change their tiers first.`,
    {
      escalation_policies: policies,
    },
  );
}
