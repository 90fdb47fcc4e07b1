import { escalationPolicies, schedules, userAdmin } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { lastAdmin } from './user-conflicts';
import { notFound } from './write-errors';

/**
 * `DELETE /api/v1/users/{id}` (admin). Rotations and escalation tiers that named the user keep their
 * name (the reference becomes a name without an account); incidents they commanded lose the commander;
 * their sessions end. The last active admin cannot be deleted.
 */
export async function deleteUser(ctx: ServiceContext, id: string): Promise<void> {
  await ctx.sql.begin(async (tx) => {
    const admins = await userAdmin.lockActiveAdmins(tx);
    if (!(await userAdmin.lockUser(tx, id))) throw notFound('user', id);
    if (admins.length === 1 && admins[0] === id) throw lastAdmin();
    await schedules.keepParticipantNames(tx, id);
    await escalationPolicies.keepTierUserNames(tx, id);
    await userAdmin.deleteUser(tx, id);
  });
  ctx.logger.info({ user_id: id }, 'user deleted');
}
