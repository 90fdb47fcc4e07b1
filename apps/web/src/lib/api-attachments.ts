// Incident attachments (docs/attachments.md): listing and deleting through the JSON client, uploading
// through XMLHttpRequest, the one browser API that reports an upload's progress.

import type { Attachment, AttachmentList } from '@firebreak/schema';
import { ApiError, del, get, messageOf } from './api-client';

/** The server's limit (docs/attachments.md#limits), checked here too so a big file is not sent for nothing. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

const base = (incidentId: string) => `/api/v1/incidents/${encodeURIComponent(incidentId)}/attachments`;

export const attachmentsApi = {
  list: (incidentId: string) => get<AttachmentList>(base(incidentId)),
  remove: (incidentId: string, attachmentId: string) =>
    del(`${base(incidentId)}/${encodeURIComponent(attachmentId)}`),
  /** Where the browser downloads the file: same origin, so the session cookie goes with it. */
  downloadUrl: (incidentId: string, attachmentId: string) =>
    `${base(incidentId)}/${encodeURIComponent(attachmentId)}`,
  upload,
};

/**
 * `POST …/attachments` as multipart/form-data; `onProgress` gets the share of the body sent (0 to 1).
 * Errors become `ApiError`s with the server's message, as every other call's do.
 */
function upload(incidentId: string, file: File, onProgress: (share: number) => void): Promise<Attachment> {
  const form = new FormData();
  form.append('file', file, file.name);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', base(incidentId));
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () =>
      reject(new ApiError(0, 'network', 'Cannot reach the Firebreak server. Check your connection.'));
    xhr.onload = () => {
      let parsed: unknown;
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        parsed = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(parsed as Attachment);
        return;
      }
      const envelope = parsed as Parameters<typeof messageOf>[1];
      const { code, message } = messageOf(xhr.status, envelope);
      reject(new ApiError(xhr.status, code, message, envelope?.error?.request_id));
    };
    xhr.send(form);
  });
}
