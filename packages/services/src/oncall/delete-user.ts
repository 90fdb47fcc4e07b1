import { apiKeys, escalationPolicies, schedules, userAdmin } from '@firebreak/db';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import { presentUser } from '../auth/present';
import type { ServiceContext } from '../context';
import { lastAdmin } from './user-conflicts';
import { notFound } from './write-errors';

/**
 * `DELETE /api/v1/users/{id}` (admin). Rotations and escalation tiers that named the user keep their
 * name (the reference becomes a name without an account); incidents they commanded lose the commander;
 * their sessions end and their API keys are revoked. The last active admin cannot be deleted.
 */
export async function deleteUser(
  ctx: ServiceContext,
  id: string,
  origin: ChangeOrigin = systemOrigin,
): Promise<void> {
  await ctx.sql.begin(async (tx) => {
    const admins = await userAdmin.lockActiveAdmins(tx);
    const current = await userAdmin.lockUser(tx, id);
    if (!current) throw notFound('user', id);
    if (admins.length === 1 && admins[0] === id) throw lastAdmin();
    await schedules.keepParticipantNames(tx, id);
    await escalationPolicies.keepTierUserNames(tx, id);
    // Their API keys act for them: revoked with them (sessions go by cascade).
    await apiKeys.revokeApiKeysOfUser(tx, id, ctx.now());
    await userAdmin.deleteUser(tx, id);
    await recordAudit(tx, ctx, {
      origin,
      entity: 'user',
      entityId: id,
      action: 'delete',
      before: presentUser(current),
      after: null,
    });
  });
  ctx.logger.info({ user_id: id }, 'user deleted');
}
