import { changeOriginOf, type Operations, principalOf } from '@firebreak/http';
import {
  createCalendarFeed,
  createOverride,
  createSchedule,
  createUnavailability,
  deleteOverride,
  deleteSchedule,
  deleteUnavailability,
  getSchedule,
  listOverrides,
  listSchedules,
  listUnavailability,
  revokeCalendarFeed,
  scheduleShifts,
  shiftWindow,
  updateSchedule,
  whoIsOnCall,
} from '@firebreak/services';
import { calendarUrl } from '../calendar-ics';
import type { ApiDeps } from '../deps';
import { scheduleOperations as op } from '../operations/oncall';
import { scheduleUnavailabilityOperations as away } from '../operations/schedule-unavailability';

/**
 * Admins change schedules; everyone reads them, their shifts and overrides, and asks who is on call.
 * Members may take a shift themselves (docs/api.md#overrides).
 */
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
  ops.add(op.shifts, async (c, { params, query }) =>
    c.json({ shifts: await scheduleShifts(ctx, params.id, shiftWindow(query, ctx.now())) }),
  );
  ops.add(op.listOverrides, async (c, { params, query }) =>
    c.json({ overrides: await listOverrides(ctx, params.id, shiftWindow(query, ctx.now())) }),
  );
  ops.add(op.createOverride, async (c, { params, body }) =>
    c.json(await createOverride(ctx, principalOf(c), params.id, body, changeOriginOf(c)), 201),
  );
  ops.add(op.deleteOverride, async (c, { params }) => {
    await deleteOverride(ctx, principalOf(c), params.id, params.override_id, changeOriginOf(c));
    return c.body(null, 204);
  });
  // Unavailability (docs/api.md#unavailability): viewers read; a member marks themselves, an admin anyone.
  ops.add(away.listUnavailability, async (c, { params, query }) =>
    c.json({ unavailability: await listUnavailability(ctx, params.id, shiftWindow(query, ctx.now())) }),
  );
  ops.add(away.createUnavailability, async (c, { params, body }) =>
    c.json(await createUnavailability(ctx, principalOf(c), params.id, body, changeOriginOf(c)), 201),
  );
  ops.add(away.deleteUnavailability, async (c, { params }) => {
    await deleteUnavailability(ctx, principalOf(c), params.id, params.unavailability_id, changeOriginOf(c));
    return c.body(null, 204);
  });
  ops.add(op.createCalendarFeed, async (c, { params }) => {
    const feed = await createCalendarFeed(ctx, { scheduleId: params.id }, changeOriginOf(c));
    return c.json({ url: calendarUrl(deps.config.publicUrl, feed.token), token_hint: feed.token_hint }, 201);
  });
  ops.add(op.revokeCalendarFeed, async (c, { params }) => {
    await revokeCalendarFeed(ctx, { scheduleId: params.id }, changeOriginOf(c));
    return c.body(null, 204);
  });
}
