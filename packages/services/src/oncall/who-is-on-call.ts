import { users } from '@firebreak/db';
import type { OnCall } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { finalOnCallPerson } from './final-shifts';
import { notFound } from './write-errors';

/**
 * `GET /api/v1/schedules/{id}/on-call?at=`: the layers' answer with overrides applied (docs/schedules.md#overrides).
 * A participant without an account (imported by name, or whose user was deleted) is still reported,
 * with null id and contacts: the schedule says it is their turn, and hiding that would look like a gap.
 */
export async function whoIsOnCall(ctx: ServiceContext, scheduleId: string, at: Date): Promise<OnCall> {
  const found = await finalOnCallPerson(ctx.sql, scheduleId, at);
  if (!found) throw notFound('schedule', scheduleId);
  if (!found.person) return { users: [] };
  const { user_id, name } = found.person;
  const user = user_id ? await users.findUserById(ctx.sql, user_id) : undefined;
  return {
    users: [
      user
        ? { id: user.id, name: user.name, email: user.email, slack_user_id: user.slack_user_id }
        : { id: null, name, email: null, slack_user_id: null },
    ],
  };
}
