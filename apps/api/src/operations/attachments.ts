import { answer, defineOperation, errorAnswers } from '@firebreak/http';
import {
  Attachment,
  AttachmentList,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS_PER_INCIDENT,
  UploadAttachmentForm,
} from '@firebreak/schema';
import { z } from 'zod';
import { IncidentParams } from './params';

/**
 * Files attached to incidents (docs/attachments.md). Adding one is incident work: members and admins
 * upload, viewers list and download; a file is deleted by its uploader or an admin.
 */

const AttachmentParams = IncidentParams.extend({
  attachment_id: z
    .guid({ error: (issue) => `No attachment with id "${String(issue.input)}".` })
    .toLowerCase()
    .meta({ description: 'The attachment’s UUID' }),
});
const base = '/api/v1/incidents/{id}/attachments';

export const attachmentOperations = {
  list: defineOperation({
    method: 'get',
    path: base,
    access: 'viewer',
    summary: 'The incident’s attachments, newest first (without their bytes)',
    request: { params: IncidentParams },
    responses: { 200: answer('Attachments', AttachmentList), ...errorAnswers(404) },
  }),
  upload: defineOperation({
    method: 'post',
    path: base,
    access: 'member',
    summary: 'Attach a file (multipart/form-data, one part named `file`)',
    description: `At most ${MAX_ATTACHMENT_BYTES} bytes (10 MiB): more is 413 \`payload_too_large\` and nothing is stored. The content type is sniffed from the bytes (the part’s declared type is ignored); the file name is cleaned. Writes an \`attachment_added\` timeline entry. 409 \`conflict\` on a resolved incident (its timeline is sealed) and when the incident already holds ${MAX_ATTACHMENTS_PER_INCIDENT} files; 415 unless the body is multipart/form-data. The body is read only after the role and CSRF checks: a \`Content-Length\` over the limit is refused unread, and a body without one is counted as it arrives. 503 \`busy\` with \`Retry-After\` while the process already runs 4 transfers (uploads and downloads).`,
    request: {
      params: IncidentParams,
      body: { required: true, content: { 'multipart/form-data': { schema: UploadAttachmentForm } } },
    },
    responses: { 201: answer('Attached', Attachment), ...errorAnswers(400, 403, 404, 409, 413, 415, 503) },
  }),
  download: defineOperation({
    method: 'get',
    path: `${base}/{attachment_id}`,
    access: 'viewer',
    summary: 'Download an attachment',
    description:
      'The bytes as uploaded, with the sniffed Content-Type, `Content-Disposition: attachment` (an ASCII `filename` and the real name as `filename*`), `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox`. An attachment of another incident is 404. Streamed in 1 MiB slices; 503 `busy` with `Retry-After` while the process already runs 4 transfers.',
    request: { params: AttachmentParams },
    responses: {
      200: {
        description: 'The file',
        content: { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } },
      },
      ...errorAnswers(404, 503),
    },
  }),
  remove: defineOperation({
    method: 'delete',
    path: `${base}/{attachment_id}`,
    access: 'member',
    summary: 'Delete an attachment (its uploader, or an admin)',
    description: 'Writes an `attachment_deleted` timeline entry, on a resolved incident too.',
    request: { params: AttachmentParams },
    responses: { 204: answer('Deleted'), ...errorAnswers(403, 404) },
  }),
};
