import { scheduleOverrides, schedules, users } from '@firebreak/db';
import { AppError, type CreateOverrideInput, type ScheduleOverride } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { Principal } from '../auth/principal';
import type { ServiceContext } from '../context';
import { assertMayCreateOverride } from './override-access';
import { planShiftNotices } from './plan-shift-notices';
import { presentOverride } from './present-override';
import { refuseUnavailableOverride } from './unavailability-conflicts';
import { notFound } from './write-errors';

/**
 * How far in the past a member's override may start: a form filled in a minute ago says "now". Beyond
 * it, a member would rewrite who was on call; only an admin records past cover (docs/schedules.md).
 */
const PAST_GRACE_MS = 5 * 60_000;

/**
 * `POST /api/v1/schedules/{id}/overrides` (docs/api.md#overrides). The people named must be active
 * users; a member's override starts no earlier than now; a bad request changes nothing. The schedule is locked, so the override and the re-planned
 * shift notices commit together and in order with other changes of the schedule.
 */
export async function createOverride(
  ctx: ServiceContext,
  principal: Principal,
  scheduleId: string,
  input: CreateOverrideInput,
  origin: ChangeOrigin = systemOrigin,
): Promise<ScheduleOverride> {
  assertMayCreateOverride(principal, input.user_id);
  const row = await ctx.sql.begin(async (tx) => {
    if (!(await schedules.lockSchedule(tx, scheduleId))) throw notFound('schedule', scheduleId);
    const problems = [];
    const user = await users.findUserById(tx, input.user_id);
    if (!user?.active) problems.push({ path: 'user_id', message: 'no active user has this id' });
    const replaces = input.replaces_user_id;
    if (replaces && !(await users.findUserById(tx, replaces))) {
      problems.push({ path: 'replaces_user_id', message: 'no user has this id' });
    }
    if (
      principal.role !== 'admin' &&
      new Date(input.starts_at).getTime() < ctx.now().getTime() - PAST_GRACE_MS
    ) {
      problems.push({
        path: 'starts_at',
        message: 'a member covers from now on; only an admin records past cover',
      });
    }
    if (problems.length > 0) throw new AppError('validation_failed', 'The request is not valid.', problems);
    // docs/schedules.md#unavailability: nobody is put on call while they said they are away.
    await refuseUnavailableOverride(
      tx,
      scheduleId,
      input.user_id,
      new Date(input.starts_at),
      new Date(input.ends_at),
    );
    const created = (await scheduleOverrides.insertOverride(tx, {
      scheduleId,
      userId: input.user_id,
      replacesUserId: replaces ?? null,
      startsAt: new Date(input.starts_at),
      endsAt: new Date(input.ends_at),
      createdBy: principal.user?.id ?? null,
      at: ctx.now(),
    }))!;
    await recordAudit(tx, ctx, {
      origin,
      entity: 'schedule_override',
      entityId: created.id,
      action: 'create',
      before: null,
      after: presentOverride(created),
    });
    await planShiftNotices(tx, ctx.now(), [scheduleId]);
    return created;
  });
  ctx.logger.info({ schedule_id: scheduleId, override_id: row.id }, 'schedule override created');
  return presentOverride(row);
}
