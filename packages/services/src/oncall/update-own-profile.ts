import { userAdmin } from '@firebreak/db';
import type { UpdateOwnProfileInput, User } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import { presentUser } from '../auth/present';
import type { ServiceContext } from '../context';
import { notFound } from './write-errors';

/**
 * `PATCH /api/v1/users/me`: what anyone may change about themselves, whatever their role (today: whether
 * shift notices reach them). Role, e-mail and the rest stay with admins.
 */
export async function updateOwnProfile(
  ctx: ServiceContext,
  userId: string,
  input: UpdateOwnProfileInput,
  origin: ChangeOrigin = systemOrigin,
): Promise<User> {
  const row = await ctx.sql.begin(async (tx) => {
    const current = await userAdmin.lockUser(tx, userId);
    if (!current) throw notFound('user', userId);
    const changes: userAdmin.UserChanges = {};
    if (input.shift_notices !== undefined) changes.shift_notices = input.shift_notices;
    const updated = (await userAdmin.updateUser(tx, userId, changes, ctx.now()))!;
    await recordAudit(tx, ctx, {
      origin,
      entity: 'user',
      entityId: userId,
      action: 'update',
      before: presentUser(current),
      after: presentUser(updated),
    });
    return updated;
  });
  ctx.logger.info({ user_id: userId, fields: Object.keys(input) }, 'user changed own profile');
  return presentUser(row);
}
