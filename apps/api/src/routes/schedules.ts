import { changeOriginOf, type Operations } from '@firebreak/http';
import {
  createSchedule,
  deleteSchedule,
  getSchedule,
  listSchedules,
  updateSchedule,
  whoIsOnCall,
} from '@firebreak/services';
import type { ApiDeps } from '../deps';
import { scheduleOperations as op } from '../operations/oncall';

/** Admins change schedules; everyone reads them and asks who is on call. */
export function addScheduleRoutes(ops: Operations, deps: ApiDeps): void {
  const { ctx } = deps;
  ops.add(op.list, async (c) => c.json({ schedules: await listSchedules(ctx) }));
  ops.add(op.create, async (c, { body }) => c.json(await createSchedule(ctx, body, changeOriginOf(c)), 201));
  ops.add(op.get, async (c, { params }) => c.json(await getSchedule(ctx, params.id)));
  ops.add(op.update, async (c, { params, body }) =>
    c.json(await updateSchedule(ctx, params.id, body, changeOriginOf(c))),
  );
  ops.add(op.remove, async (c, { params }) => {
    await deleteSchedule(ctx, params.id, changeOriginOf(c));
    return c.body(null, 204);
  });
  ops.add(op.onCall, async (c, { params, query }) =>
    c.json(await whoIsOnCall(ctx, params.id, query.at ? new Date(query.at) : ctx.now())),
  );
}
