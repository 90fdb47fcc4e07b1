import { createHash, randomUUID } from 'node:crypto';
import { attachments, incidents, timeline } from '@firebreak/db';
import {
  AppError,
  type Attachment,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS_PER_INCIDENT,
} from '@firebreak/schema';
import type { Principal } from '../auth/principal';
import type { ServiceContext } from '../context';
import { actorFromPrincipal } from '../incidents/actor';
import { incidentNotFound } from '../incidents/ref';
import { sealed } from '../incidents/update';
import { cleanFilename, disarmExtension } from './filename';
import { presentAttachment } from './present';
import { sniffContentType } from './sniff';

export interface UploadedFile {
  /** The name the client gave the file's part, as sent (it may hold a path). */
  filename: string;
  bytes: Uint8Array;
}

/** The 413 of a file over the limit, whichever check caught it (docs/attachments.md#limits). */
export function attachmentTooLarge(): AppError {
  return new AppError(
    'payload_too_large',
    `The file is larger than ${MAX_ATTACHMENT_BYTES} bytes (10 MiB), the most one attachment may hold.`,
  );
}

/**
 * `POST …/attachments`: the file, its metadata and its `attachment_added` entry in one transaction.
 * The bytes are written first, before the incident's row lock is taken, so a 10 MiB write never holds
 * up an acknowledgement or a note; then, under the lock, the status and the cap are checked and the
 * metadata and entry added, so that two uploads cannot both take the last of the 100 places and an
 * upload racing the resolution lands before it or is refused. A refusal rolls the bytes back with the
 * rest. A resolved incident's timeline is sealed (docs/api.md#incidents): 409 `conflict`, as for notes.
 */
export async function uploadAttachment(
  ctx: ServiceContext,
  principal: Principal,
  ref: incidents.IncidentRef,
  file: UploadedFile,
): Promise<Attachment> {
  const size = file.bytes.byteLength;
  if (size > MAX_ATTACHMENT_BYTES) throw attachmentTooLarge();
  if (size === 0) {
    throw new AppError('validation_failed', 'The file is empty.', [
      { path: 'file', message: 'The file is empty.' },
    ]);
  }
  const type = await sniffContentType(file.bytes);
  const cleaned = cleanFilename(file.filename, type.ext);
  const filename = type.recognised ? cleaned : disarmExtension(cleaned);
  const sha256 = createHash('sha256').update(file.bytes).digest('hex');
  const actor = actorFromPrincipal(principal);
  const id = randomUUID();
  const row = await ctx.sql.begin(async (tx) => {
    await attachments.insertAttachmentData(tx, id, file.bytes);
    const incident = await incidents.lockIncident(tx, ref);
    if (!incident) throw incidentNotFound(ref);
    if (incident.status === 'resolved') throw sealed();
    if ((await attachments.countAttachments(tx, incident.id)) >= MAX_ATTACHMENTS_PER_INCIDENT) {
      throw new AppError(
        'conflict',
        `Incident #${incident.number} already has ${MAX_ATTACHMENTS_PER_INCIDENT} attachments, the most one incident may hold; delete one first.`,
      );
    }
    const at = ctx.now();
    const inserted = await attachments.insertAttachment(tx, {
      id,
      incidentId: incident.id,
      filename,
      contentType: type.mime,
      size,
      sha256,
      uploadedBy: principal.user?.id ?? null,
      uploadedByName: actor.name ?? 'unknown',
      at,
    });
    await timeline.insertTimelineEntry(tx, {
      incidentId: incident.id,
      type: 'attachment_added',
      actor,
      data: { attachment_id: inserted.id, filename, size, content_type: type.mime },
      at,
    });
    return inserted;
  });
  ctx.logger.info(
    { incident_id: row.incident_id, attachment_id: row.id, size, content_type: row.content_type },
    'attachment added',
  );
  return presentAttachment(row);
}
