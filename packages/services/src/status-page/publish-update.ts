import { incidents, statusPageUpdates, timeline } from '@firebreak/db';
import type { Actor, CreateStatusUpdateInput, StatusUpdate } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { incidentNotFound } from '../incidents/ref';
import { presentStatusUpdate } from './list-updates';

/**
 * `POST /api/v1/incidents/{id}/status-updates` (members): publishes an update on the status page and
 * records a `status_update_published` timeline entry in the same transaction. The incident becomes
 * public with its first update. Allowed on a resolved incident too: the public "resolved" message often
 * follows the resolution, and it keeps the incident listed for 7 days from then.
 */
export async function publishStatusUpdate(
  ctx: ServiceContext,
  actor: Actor,
  userId: string | null,
  ref: incidents.IncidentRef,
  input: CreateStatusUpdateInput,
): Promise<StatusUpdate> {
  const { row, incidentId } = await ctx.sql.begin(async (tx) => {
    // The incident's lock orders its timeline entries and its public row's writes.
    const incident = await incidents.lockIncident(tx, ref);
    if (!incident) throw incidentNotFound(ref);
    const at = ctx.now();
    await statusPageUpdates.upsertPublicIncident(tx, incident.id, input.title ?? null, at);
    const update = await statusPageUpdates.insertUpdate(
      tx,
      { incidentId: incident.id, status: input.status, body: input.body, createdBy: userId },
      at,
    );
    await timeline.insertTimelineEntry(tx, {
      incidentId: incident.id,
      type: 'status_update_published',
      actor,
      data: { update_id: update.id, status: update.status },
      at,
    });
    return { row: update, incidentId: incident.id };
  });
  ctx.logger.info(
    { incident_id: incidentId, status_update_id: row.id, status: row.status },
    'status update published',
  );
  return presentStatusUpdate({ ...row, created_by_name: actor.name ?? null });
}
