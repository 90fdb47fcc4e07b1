import { schedules, scheduleUnavailability, users } from '@firebreak/db';
import { leavesGap } from '@firebreak/domain';
import {
  AppError,
  type CreatedUnavailability,
  type CreateUnavailabilityInput,
  type ValidationIssue,
} from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { Principal } from '../auth/principal';
import type { ServiceContext } from '../context';
import { loadFinalShifts } from './final-shifts';
import { planShiftNotices } from './plan-shift-notices';
import { presentUnavailability } from './present-unavailability';
import { assertMayWriteUnavailability } from './unavailability-access';
import { refuseOverrideConflict, refuseOwnRangeConflict } from './unavailability-conflicts';
import { notFound } from './write-errors';

/**
 * How far in the past a member's range may start, as for overrides: a form filled in a minute ago says
 * "now". Beyond it, a member would rewrite who was on call; only an admin records a past absence.
 */
const PAST_GRACE_MS = 5 * 60_000;

/**
 * `POST /api/v1/schedules/{id}/unavailability` (docs/api.md#unavailability). The person must be an
 * active user who takes part in a layer of this schedule (else the range would change nothing); the
 * range may not be over, and only an admin may start it in the past ("sick since this morning"). A bad
 * request changes nothing. The answer says whether the range leaves the schedule with nobody on call
 * (`leaves_gap`). The schedule is locked, so the range, the conflict checks (overrides, the
 * person's other ranges, their number) and the re-planned shift notices commit together and in order
 * with other changes of the schedule.
 */
export async function createUnavailability(
  ctx: ServiceContext,
  principal: Principal,
  scheduleId: string,
  input: CreateUnavailabilityInput,
  origin: ChangeOrigin = systemOrigin,
): Promise<CreatedUnavailability> {
  assertMayWriteUnavailability(principal, input.user_id);
  const startsAt = new Date(input.starts_at);
  const endsAt = new Date(input.ends_at);
  const { row, gap } = await ctx.sql.begin(async (tx) => {
    if (!(await schedules.lockSchedule(tx, scheduleId))) throw notFound('schedule', scheduleId);
    const schedule = (await schedules.findSchedule(tx, scheduleId))!;
    const problems: ValidationIssue[] = [];
    const user = await users.findUserById(tx, input.user_id);
    const takesPart = schedule.layers.some((layer) =>
      layer.participants.some((p) => p.user_id === input.user_id),
    );
    if (!user?.active) problems.push({ path: 'user_id', message: 'no active user has this id' });
    else if (!takesPart) {
      problems.push({ path: 'user_id', message: 'this user takes part in no layer of the schedule' });
    }
    if (endsAt.getTime() <= ctx.now().getTime()) {
      problems.push({ path: 'ends_at', message: 'the range is over; unavailability is for now or later' });
    }
    if (principal.role !== 'admin' && startsAt.getTime() < ctx.now().getTime() - PAST_GRACE_MS) {
      problems.push({
        path: 'starts_at',
        message: 'a member marks themselves unavailable from now on; only an admin records a past absence',
      });
    }
    if (problems.length > 0) throw new AppError('validation_failed', 'The request is not valid.', problems);
    await refuseOverrideConflict(tx, scheduleId, input.user_id, startsAt, endsAt);
    await refuseOwnRangeConflict(tx, scheduleId, input.user_id, startsAt, endsAt, ctx.now());
    const created = await scheduleUnavailability.insertUnavailability(tx, {
      scheduleId,
      userId: input.user_id,
      startsAt,
      endsAt,
      createdBy: principal.user?.id ?? null,
      at: ctx.now(),
    });
    await recordAudit(tx, ctx, {
      origin,
      entity: 'schedule_unavailability',
      entityId: created.id,
      action: 'create',
      before: null,
      after: presentUnavailability(created),
    });
    // Nobody on call from now on inside the range: said in the answer, not refused (a gap may be
    // agreed). A schedule with too many turns to compute here answers no gap rather than failing.
    const from = new Date(Math.max(startsAt.getTime(), ctx.now().getTime()));
    const [final] = await loadFinalShifts(tx, from, endsAt, [scheduleId], { skipTooMany: true });
    const gap = final ? leavesGap(final.shifts, from.getTime(), endsAt.getTime()) : false;
    await planShiftNotices(tx, ctx.now(), [scheduleId]);
    return { row: created, gap };
  });
  ctx.logger.info({ schedule_id: scheduleId, unavailability_id: row.id }, 'schedule unavailability created');
  return { ...presentUnavailability(row), leaves_gap: gap };
}
