import { type AppEnv, type RequireRole, readJson } from '@firebreak/http';
import { CreateUserInput, UpdateUserInput } from '@firebreak/schema';
import { createUser, deleteUser, getUser, listUsers, updateUser } from '@firebreak/services';
import type { Hono } from 'hono';
import type { ApiDeps } from '../deps';
import { uuidParam } from './params';

/** CONTRACT.md §9. Admins manage users; members and viewers read them (to pick a commander, a rota). */
export function addUserRoutes(app: Hono<AppEnv>, deps: ApiDeps, requireRole: RequireRole): void {
  const { ctx } = deps;

  app.get('/api/v1/users', requireRole('viewer'), async (c) => {
    return c.json({ users: await listUsers(ctx) });
  });

  app.post('/api/v1/users', requireRole('admin'), async (c) => {
    const input = await readJson(c, CreateUserInput);
    return c.json(await createUser(ctx, input), 201);
  });

  app.get('/api/v1/users/:id', requireRole('viewer'), async (c) => {
    return c.json(await getUser(ctx, uuidParam(c, 'id')));
  });

  app.patch('/api/v1/users/:id', requireRole('admin'), async (c) => {
    const id = uuidParam(c, 'id');
    const input = await readJson(c, UpdateUserInput);
    return c.json(await updateUser(ctx, id, input));
  });

  app.delete('/api/v1/users/:id', requireRole('admin'), async (c) => {
    await deleteUser(ctx, uuidParam(c, 'id'));
    return c.body(null, 204);
  });
}
