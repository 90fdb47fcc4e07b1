import type { Queryable } from './client';

// Incident attachments (migration 0026): the metadata row and the bytes in a table of their own, so
// that listing never reads file data.

export interface AttachmentRow {
  id: string;
  incident_id: string;
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
  uploaded_by: string | null;
  uploaded_by_name: string;
  created_at: Date;
}

export interface InsertAttachment {
  /** Made by the service: the bytes are written under it before the metadata row exists. */
  id: string;
  incidentId: string;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  uploadedBy: string | null;
  uploadedByName: string;
  at: Date;
}

/** Newest first; the bytes are not read. */
export async function listAttachments(sql: Queryable, incidentId: string): Promise<AttachmentRow[]> {
  return sql<AttachmentRow[]>`
    select * from incident_attachments
    where incident_id = ${incidentId}
    order by created_at desc, id desc`;
}

export async function countAttachments(sql: Queryable, incidentId: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from incident_attachments where incident_id = ${incidentId}`;
  return row?.n ?? 0;
}

/** One attachment of one incident: an id of another incident's attachment finds nothing. */
export async function findAttachment(
  sql: Queryable,
  incidentId: string,
  id: string,
): Promise<AttachmentRow | undefined> {
  const [row] = await sql<AttachmentRow[]>`
    select * from incident_attachments where id = ${id} and incident_id = ${incidentId}`;
  return row;
}

/** The largest slice of a file one query reads: a download streams a file in slices of this. */
export const ATTACHMENT_SLICE_BYTES = 1024 * 1024;

/**
 * `length` bytes of attachment `id` from `offset` (0-based); empty once past the end, and for an
 * attachment deleted meanwhile. The column is stored uncompressed (migration 0026), so PostgreSQL reads
 * only the slice's chunks.
 */
export async function readAttachmentSlice(
  sql: Queryable,
  id: string,
  offset: number,
  length: number,
): Promise<Uint8Array> {
  const [row] = await sql<{ data: Uint8Array }[]>`
    select substring(data from ${offset + 1}::int for ${length}::int) as data
    from incident_attachment_data where attachment_id = ${id}`;
  return row?.data ?? new Uint8Array(0);
}

/**
 * The bytes of a new attachment, before its metadata row: the caller's transaction must insert that
 * row with `insertAttachment` before it commits (the reference is checked at commit). This statement
 * takes no lock on the incident, so the caller takes that lock only afterwards.
 */
export async function insertAttachmentData(sql: Queryable, id: string, data: Uint8Array): Promise<void> {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  await sql`insert into incident_attachment_data (attachment_id, data) values (${id}, ${bytes})`;
}

/** The metadata row of bytes already written by `insertAttachmentData` in the same transaction. */
export async function insertAttachment(sql: Queryable, attachment: InsertAttachment): Promise<AttachmentRow> {
  const [row] = await sql<AttachmentRow[]>`
    insert into incident_attachments
      (id, incident_id, filename, content_type, size, sha256, uploaded_by, uploaded_by_name, created_at)
    values (${attachment.id}, ${attachment.incidentId}, ${attachment.filename}, ${attachment.contentType},
            ${attachment.size}, ${attachment.sha256}, ${attachment.uploadedBy},
            ${attachment.uploadedByName}, ${attachment.at})
    returning *`;
  return row!;
}

/** The bytes go with the row (on delete cascade). */
export async function deleteAttachment(sql: Queryable, id: string): Promise<boolean> {
  const result = await sql`delete from incident_attachments where id = ${id}`;
  return result.count > 0;
}
