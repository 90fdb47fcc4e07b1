import { attachments, type incidents } from '@firebreak/db';
import type { Attachment } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { requireIncidentId } from './incident';
import { presentAttachment } from './present';

/** `GET …/attachments`: newest first, without the bytes. */
export async function listAttachments(
  ctx: ServiceContext,
  ref: incidents.IncidentRef,
): Promise<Attachment[]> {
  const incidentId = await requireIncidentId(ctx.sql, ref);
  return (await attachments.listAttachments(ctx.sql, incidentId)).map(presentAttachment);
}
