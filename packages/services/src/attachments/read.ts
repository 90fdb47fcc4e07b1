import { attachments, type incidents } from '@firebreak/db';
import { AppError, type Attachment } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { attachmentNotFound, requireIncidentId } from './incident';
import { presentAttachment } from './present';

export interface AttachmentFile {
  attachment: Attachment;
  /**
   * The bytes in slices of at most 1 MiB, each read when the previous one has been sent, so a
   * download holds one slice in memory rather than the whole file.
   */
  slices: () => AsyncGenerator<Uint8Array>;
}

/** `GET …/attachments/{attachment_id}`: the file and what the download's headers say about it. */
export async function readAttachment(
  ctx: ServiceContext,
  ref: incidents.IncidentRef,
  attachmentId: string,
): Promise<AttachmentFile> {
  const incidentId = await requireIncidentId(ctx.sql, ref);
  const row = await attachments.findAttachment(ctx.sql, incidentId, attachmentId);
  if (!row) throw attachmentNotFound(attachmentId);
  async function* slices(): AsyncGenerator<Uint8Array> {
    for (let offset = 0; offset < row!.size; offset += attachments.ATTACHMENT_SLICE_BYTES) {
      const length = Math.min(attachments.ATTACHMENT_SLICE_BYTES, row!.size - offset);
      const slice = await attachments.readAttachmentSlice(ctx.sql, row!.id, offset, length);
      // Deleted while it was being sent: the response is cut short rather than padded or mixed.
      if (slice.byteLength !== length) throw new AppError('not_found', 'The attachment was deleted.');
      yield slice;
    }
  }
  return { attachment: presentAttachment(row), slices };
}
