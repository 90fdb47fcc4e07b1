import { changeOriginOf, type Operations, principalOf } from '@firebreak/http';
import { AppError } from '@firebreak/schema';
import {
  createCalendarFeed,
  createUser,
  deleteUser,
  getUser,
  listUsers,
  type Principal,
  revokeCalendarFeed,
  shiftWindow,
  updateOwnProfile,
  updateUser,
  userShifts,
} from '@firebreak/services';
import { calendarUrl } from '../calendar-ics';
import type { ApiDeps } from '../deps';
import { userOperations as op } from '../operations/oncall';

/** The user behind the request; `me` means nobody for a principal without one. */
function selfOf(principal: Principal): string {
  if (!principal.user) throw new AppError('forbidden', 'Only a user has a profile, shifts and a calendar.');
  return principal.user.id;
}

/**
 * Admins manage users; members and viewers read them (to pick a commander, a rota). Everyone manages
 * their own profile settings and calendar feed through `me`, registered first so that `PATCH
 * /users/me` is not read as an admin's change of user "me".
 */
export function addUserRoutes(ops: Operations, deps: ApiDeps): void {
  const { ctx } = deps;
  ops.add(op.updateMe, async (c, { body }) =>
    c.json(await updateOwnProfile(ctx, selfOf(principalOf(c)), body, changeOriginOf(c))),
  );
  ops.add(op.shifts, async (c, { params, query }) => {
    const id = params.id === 'me' ? selfOf(principalOf(c)) : params.id;
    return c.json({ shifts: await userShifts(ctx, id, shiftWindow(query, ctx.now())) });
  });
  ops.add(op.createMyCalendarFeed, async (c) => {
    const owner = { userId: selfOf(principalOf(c)) };
    const feed = await createCalendarFeed(ctx, owner, changeOriginOf(c));
    return c.json({ url: calendarUrl(deps.config.publicUrl, feed.token), token_hint: feed.token_hint }, 201);
  });
  ops.add(op.revokeMyCalendarFeed, async (c) => {
    await revokeCalendarFeed(ctx, { userId: selfOf(principalOf(c)) }, changeOriginOf(c));
    return c.body(null, 204);
  });
  ops.add(op.revokeUserCalendarFeed, async (c, { params }) => {
    await revokeCalendarFeed(ctx, { userId: params.id }, changeOriginOf(c));
    return c.body(null, 204);
  });
  ops.add(op.list, async (c) => c.json({ users: await listUsers(ctx) }));
  ops.add(op.create, async (c, { body }) => c.json(await createUser(ctx, body, changeOriginOf(c)), 201));
  ops.add(op.get, async (c, { params }) => c.json(await getUser(ctx, params.id)));
  ops.add(op.update, async (c, { params, body }) =>
    c.json(await updateUser(ctx, params.id, body, changeOriginOf(c))),
  );
  ops.add(op.remove, async (c, { params }) => {
    await deleteUser(ctx, params.id, changeOriginOf(c));
    return c.body(null, 204);
  });
}
