import { attachments, incidents, timeline } from '@firebreak/db';
import { AppError } from '@firebreak/schema';
import type { Principal } from '../auth/principal';
import type { ServiceContext } from '../context';
import { actorFromPrincipal } from '../incidents/actor';
import { incidentNotFound } from '../incidents/ref';
import { attachmentNotFound } from './incident';

/**
 * `DELETE …/attachments/{attachment_id}`: its uploader or an admin; anyone else 403. The bytes go with
 * the row, and an `attachment_deleted` entry says who removed which file. Allowed on a resolved
 * incident too, whose timeline takes this one entry: a file uploaded by mistake (a secret, personal
 * data) must stay removable after the incident is over (docs/decisions.md#attachments).
 */
export async function deleteAttachment(
  ctx: ServiceContext,
  principal: Principal,
  ref: incidents.IncidentRef,
  attachmentId: string,
): Promise<void> {
  const removed = await ctx.sql.begin(async (tx) => {
    const incident = await incidents.lockIncident(tx, ref);
    if (!incident) throw incidentNotFound(ref);
    const row = await attachments.findAttachment(tx, incident.id, attachmentId);
    if (!row) throw attachmentNotFound(attachmentId);
    const isUploader = row.uploaded_by !== null && row.uploaded_by === principal.user?.id;
    if (!isUploader && principal.role !== 'admin') {
      throw new AppError('forbidden', 'Only its uploader or an admin may delete an attachment.');
    }
    await attachments.deleteAttachment(tx, row.id);
    await timeline.insertTimelineEntry(tx, {
      incidentId: incident.id,
      type: 'attachment_deleted',
      actor: actorFromPrincipal(principal),
      data: { attachment_id: row.id, filename: row.filename },
      at: ctx.now(),
    });
    return row;
  });
  ctx.logger.info({ incident_id: removed.incident_id, attachment_id: removed.id }, 'attachment deleted');
}
