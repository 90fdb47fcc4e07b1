import type { attachments } from '@firebreak/db';
import type { Attachment } from '@firebreak/schema';

export function presentAttachment(row: attachments.AttachmentRow): Attachment {
  return {
    id: row.id,
    incident_id: row.incident_id,
    filename: row.filename,
    content_type: row.content_type,
    size: row.size,
    sha256: row.sha256,
    uploaded_by: { id: row.uploaded_by, name: row.uploaded_by_name },
    created_at: row.created_at.toISOString(),
  };
}
