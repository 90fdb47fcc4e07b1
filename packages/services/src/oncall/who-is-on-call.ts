import { schedules, users } from '@firebreak/db';
import { onCallAt } from '@firebreak/domain';
import type { OnCall } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { notFound } from './write-errors';

/**
 * `GET /api/v1/schedules/{id}/on-call?at=` and the escalation engine's "who does this tier page".
 * A participant without an account (imported by name, or whose user was deleted) is still reported,
 * with null id and contacts: the schedule says it is their turn, and hiding that would look like a gap.
 */
export async function whoIsOnCall(ctx: ServiceContext, scheduleId: string, at: Date): Promise<OnCall> {
  const schedule = await schedules.findSchedule(ctx.sql, scheduleId);
  if (!schedule) throw notFound('schedule', scheduleId);
  const shift = onCallAt(schedule, at);
  if (!shift) return { users: [] };
  const { user_id, name } = shift.participant;
  const user = user_id ? await users.findUserById(ctx.sql, user_id) : undefined;
  return {
    users: [
      user
        ? { id: user.id, name: user.name, email: user.email, slack_user_id: user.slack_user_id }
        : { id: null, name, email: null, slack_user_id: null },
    ],
  };
}
