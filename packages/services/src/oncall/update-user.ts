import { calendarFeeds, userAdmin } from '@firebreak/db';
import type { UpdateUserInput, User } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import { hashPassword } from '../auth/passwords';
import { presentUser } from '../auth/present';
import type { ServiceContext } from '../context';
import { lastAdmin, userConflicts } from './user-conflicts';
import { notFound, refusingConflicts } from './write-errors';

/**
 * `PATCH /api/v1/users/{id}` (admin). A new password or deactivation ends the user's sessions;
 * deactivation also revokes their calendar feed (docs/schedules.md#calendar-feeds). Demoting or deactivating
 * the last active admin is refused (409), since nobody could then manage the installation.
 */
export async function updateUser(
  ctx: ServiceContext,
  id: string,
  input: UpdateUserInput,
  origin: ChangeOrigin = systemOrigin,
): Promise<User> {
  const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
  const write = ctx.sql.begin(async (tx) => {
    // Admins are locked before the user, in the same order as deleteUser, so the two cannot deadlock.
    const admins =
      input.role !== undefined || input.active !== undefined ? await userAdmin.lockActiveAdmins(tx) : [];
    const current = await userAdmin.lockUser(tx, id);
    if (!current) throw notFound('user', id);
    const losesAdmin = (input.role !== undefined && input.role !== 'admin') || input.active === false;
    if (losesAdmin && admins.length === 1 && admins[0] === id) throw lastAdmin();
    const { password: _, ...fields } = input;
    const changes: userAdmin.UserChanges = Object.fromEntries(
      Object.entries({ ...fields, password_hash: passwordHash }).filter(([, value]) => value !== undefined),
    );
    const row = await userAdmin.updateUser(tx, id, changes, ctx.now());
    // A deactivated user's sessions end now, so reactivation does not revive them. A role change
    // needs no such step: each request reads the user's current role.
    if (passwordHash || input.active === false) await userAdmin.deleteSessionsOfUser(tx, id);
    // Likewise their calendar URL: it needs no login, so it would outlive the account otherwise.
    const feed = input.active === false ? await calendarFeeds.deleteFeed(tx, { userId: id }) : undefined;
    if (feed) {
      await recordAudit(tx, ctx, {
        origin,
        entity: 'calendar_feed',
        entityId: feed.id,
        action: 'revoke',
        before: { user_id: feed.user_id, schedule_id: feed.schedule_id, token_hint: feed.token_hint },
        after: null,
      });
    }
    await recordAudit(tx, ctx, {
      origin,
      entity: 'user',
      entityId: id,
      action: 'update',
      before: presentUser(current),
      // A new password shows as a redacted field: the log says it was changed, never to what.
      after: { ...presentUser(row!), ...(passwordHash ? { password: passwordHash } : {}) },
    });
    return row!;
  });
  const row = await refusingConflicts(write, userConflicts(input));
  ctx.logger.info({ user_id: id, fields: Object.keys(input) }, 'user changed');
  return presentUser(row);
}
