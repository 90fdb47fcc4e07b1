import type { AppEnv, RequireRole } from '@firebreak/http';
import { AlertStatus, parseOrThrow } from '@firebreak/schema';
import { getIncidentAlerts, listAlerts, parseIncidentRef } from '@firebreak/services';
import type { Hono } from 'hono';
import { z } from 'zod';
import type { ApiDeps } from '../deps';

export const ListAlertsQuery = z.object({
  status: AlertStatus.optional(),
  source: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  cursor: z.string().max(300).optional(),
  sort: z.literal('-received_at', { error: 'the only order is -received_at (newest first)' }).optional(),
});

/** CONTRACT.md §6: `GET /api/v1/alerts`, and the alerts of one incident (§5). */
export function addAlertRoutes(app: Hono<AppEnv>, deps: ApiDeps, requireRole: RequireRole): void {
  app.get('/api/v1/alerts', requireRole('viewer'), async (c) => {
    const query = parseOrThrow(ListAlertsQuery, c.req.query());
    return c.json(await listAlerts(deps.ctx, query));
  });

  app.get('/api/v1/incidents/:id/alerts', requireRole('viewer'), async (c) => {
    return c.json({ alerts: await getIncidentAlerts(deps.ctx, parseIncidentRef(c.req.param('id'))) });
  });
}
