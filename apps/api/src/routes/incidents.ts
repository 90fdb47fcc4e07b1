import { type AppEnv, principalOf, type RequireRole, readJson } from '@firebreak/http';
import {
  AddNoteInput,
  CreateIncidentInput,
  ListIncidentsQuery,
  parseOrThrow,
  UpdateIncidentInput,
} from '@firebreak/schema';
import {
  actorFromPrincipal,
  addNote,
  createIncident,
  getIncident,
  getTimeline,
  listIncidents,
  parseIncidentRef,
  updateIncident,
} from '@firebreak/services';
import type { Hono } from 'hono';
import type { ApiDeps } from '../deps';

/** CONTRACT.md §5. Members change incidents; viewers read them. */
export function addIncidentRoutes(app: Hono<AppEnv>, deps: ApiDeps, requireRole: RequireRole): void {
  const { ctx } = deps;

  app.post('/api/v1/incidents', requireRole('member'), async (c) => {
    const input = await readJson(c, CreateIncidentInput);
    return c.json(await createIncident(ctx, actorFromPrincipal(principalOf(c)), input), 201);
  });

  app.get('/api/v1/incidents', requireRole('viewer'), async (c) => {
    const query = parseOrThrow(ListIncidentsQuery, c.req.query());
    return c.json(await listIncidents(ctx, query));
  });

  app.get('/api/v1/incidents/:id', requireRole('viewer'), async (c) => {
    return c.json(await getIncident(ctx, parseIncidentRef(c.req.param('id'))));
  });

  app.patch('/api/v1/incidents/:id', requireRole('member'), async (c) => {
    const ref = parseIncidentRef(c.req.param('id'));
    const input = await readJson(c, UpdateIncidentInput);
    return c.json(await updateIncident(ctx, actorFromPrincipal(principalOf(c)), ref, input));
  });

  app.get('/api/v1/incidents/:id/timeline', requireRole('viewer'), async (c) => {
    return c.json({ entries: await getTimeline(ctx, parseIncidentRef(c.req.param('id'))) });
  });

  app.post('/api/v1/incidents/:id/notes', requireRole('member'), async (c) => {
    const ref = parseIncidentRef(c.req.param('id'));
    const input = await readJson(c, AddNoteInput);
    return c.json(await addNote(ctx, actorFromPrincipal(principalOf(c)), ref, input), 201);
  });
}
