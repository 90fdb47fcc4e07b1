import { type AppEnv, type RequireRole, readJson } from '@firebreak/http';
import { CreateScheduleInput, OnCallQuery, parseOrThrow, UpdateScheduleInput } from '@firebreak/schema';
import {
  createSchedule,
  deleteSchedule,
  getSchedule,
  listSchedules,
  updateSchedule,
  whoIsOnCall,
} from '@firebreak/services';
import type { Hono } from 'hono';
import type { ApiDeps } from '../deps';
import { uuidParam } from './params';

/** CONTRACT.md §9. Admins change schedules; everyone reads them and asks who is on call. */
export function addScheduleRoutes(app: Hono<AppEnv>, deps: ApiDeps, requireRole: RequireRole): void {
  const { ctx } = deps;

  app.get('/api/v1/schedules', requireRole('viewer'), async (c) => {
    return c.json({ schedules: await listSchedules(ctx) });
  });

  app.post('/api/v1/schedules', requireRole('admin'), async (c) => {
    const input = await readJson(c, CreateScheduleInput);
    return c.json(await createSchedule(ctx, input), 201);
  });

  app.get('/api/v1/schedules/:id', requireRole('viewer'), async (c) => {
    return c.json(await getSchedule(ctx, uuidParam(c, 'id')));
  });

  app.patch('/api/v1/schedules/:id', requireRole('admin'), async (c) => {
    const id = uuidParam(c, 'id');
    const input = await readJson(c, UpdateScheduleInput);
    return c.json(await updateSchedule(ctx, id, input));
  });

  app.delete('/api/v1/schedules/:id', requireRole('admin'), async (c) => {
    await deleteSchedule(ctx, uuidParam(c, 'id'));
    return c.body(null, 204);
  });

  app.get('/api/v1/schedules/:id/on-call', requireRole('viewer'), async (c) => {
    const id = uuidParam(c, 'id');
    const query = parseOrThrow(OnCallQuery, c.req.query());
    return c.json(await whoIsOnCall(ctx, id, query.at ? new Date(query.at) : ctx.now()));
  });
}
