import { changeOriginOf, type Operations } from '@firebreak/http';
import { createUser, deleteUser, getUser, listUsers, updateUser } from '@firebreak/services';
import type { ApiDeps } from '../deps';
import { userOperations as op } from '../operations/oncall';

/** Admins manage users; members and viewers read them (to pick a commander, a rota). */
export function addUserRoutes(ops: Operations, deps: ApiDeps): void {
  const { ctx } = deps;
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
