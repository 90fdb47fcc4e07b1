import { z } from 'zod';

/** Files attached to incidents (docs/attachments.md). */

/** The largest file one upload may carry: 10 MiB. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
/** How many files one incident may hold. */
export const MAX_ATTACHMENTS_PER_INCIDENT = 100;
/** The longest stored file name, in bytes of UTF-8. */
export const MAX_ATTACHMENT_FILENAME_BYTES = 255;

/** Who uploaded a file; `id` is null once their account was deleted. */
export const AttachmentUploader = z.object({ id: z.uuid().nullable(), name: z.string() });
export type AttachmentUploader = z.infer<typeof AttachmentUploader>;

/** An attachment as listed: everything but the bytes. */
export const Attachment = z.object({
  id: z.uuid(),
  incident_id: z.uuid(),
  filename: z.string(),
  /** Sniffed from the bytes when it was uploaded; the type the client declared is not kept. */
  content_type: z.string(),
  size: z.number().int(),
  /** Hex SHA-256 of the bytes. */
  sha256: z.string(),
  uploaded_by: AttachmentUploader,
  created_at: z.string(),
});
export type Attachment = z.infer<typeof Attachment>;

export const AttachmentList = z.object({ items: z.array(Attachment) });
export type AttachmentList = z.infer<typeof AttachmentList>;

/** `POST /api/v1/incidents/{id}/attachments`: a multipart/form-data body with one part, `file`. */
export const UploadAttachmentForm = z.object({
  file: z.string().meta({
    format: 'binary',
    description: `The file (one per request, at most ${MAX_ATTACHMENT_BYTES} bytes). Its part’s filename is kept, cleaned; its Content-Type is ignored.`,
  }),
});
