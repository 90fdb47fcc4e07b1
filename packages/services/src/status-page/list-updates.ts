import { incidents, statusPageUpdates } from '@firebreak/db';
import type { IncidentStatusUpdates, StatusUpdate } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { incidentNotFound } from '../incidents/ref';
import { publicHeading } from './rules';

export function presentStatusUpdate(row: statusPageUpdates.StatusUpdateWithAuthorRow): StatusUpdate {
  return {
    id: row.id,
    status: row.status,
    body: row.body,
    created_at: row.created_at.toISOString(),
    created_by: row.created_by ? { id: row.created_by, name: row.created_by_name ?? '' } : null,
  };
}

/**
 * `GET /api/v1/incidents/{id}/status-updates` (viewers): the incident's public updates, newest first,
 * and the heading and components the page shows it with.
 */
export async function listStatusUpdates(
  ctx: ServiceContext,
  ref: incidents.IncidentRef,
): Promise<IncidentStatusUpdates> {
  const incident = await incidents.findIncidentView(ctx.sql, ref);
  if (!incident) throw incidentNotFound(ref);
  const [published, updates, components] = await Promise.all([
    statusPageUpdates.findPublicIncident(ctx.sql, incident.id),
    statusPageUpdates.listUpdatesWithAuthors(ctx.sql, incident.id),
    statusPageUpdates.affectedComponentNames(ctx.sql, incident.id),
  ]);
  const title = published?.title ?? null;
  return {
    public_id: published?.public_id ?? null,
    title,
    heading: publicHeading(title, components),
    components,
    updates: updates.map(presentStatusUpdate),
  };
}
