import type { Attachment, Incident } from '@firebreak/schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { attachmentsApi, MAX_ATTACHMENT_BYTES } from '../../lib/api-attachments';
import { ApiError } from '../../lib/api-client';
import { formatBytes } from '../../lib/attachment-format';
import { formatDateTime, formatRelative } from '../../lib/format';
import { LIVE_INTERVAL_MS } from '../../lib/live';
import { canWrite, useMe } from '../../lib/session';
import './attachments.css';

/** Files attached to the incident (docs/attachments.md): upload, list, download, delete. */
export function AttachmentsCard({ incident }: { incident: Incident }) {
  const me = useMe();
  const attachments = useQuery({
    queryKey: ['attachments', incident.id],
    queryFn: () => attachmentsApi.list(incident.id),
    refetchInterval: LIVE_INTERVAL_MS * 2,
  });
  const items = attachments.data?.items ?? [];
  const mayUpload = canWrite(me.data, 'member') && incident.status !== 'resolved';
  const mayDelete = (a: Attachment) =>
    canWrite(me.data, 'member') &&
    (me.data?.role === 'admin' || (a.uploaded_by.id !== null && a.uploaded_by.id === me.data?.user?.id));
  return (
    <section className="card attachments" aria-labelledby="attachments-heading">
      <h2 id="attachments-heading">Attachments</h2>
      <ErrorMessage error={attachments.error} prefix="Could not load the attachments" />
      {mayUpload ? <UploadForm incidentId={incident.id} /> : null}
      {incident.status === 'resolved' && canWrite(me.data, 'member') ? (
        <p className="subtle small">The incident is resolved: no more files can be attached.</p>
      ) : null}
      {attachments.data && items.length === 0 ? <p className="subtle small">No files attached.</p> : null}
      {items.length > 0 ? (
        <ul className="attachment-list" aria-label="Attached files">
          {items.map((a) => (
            <AttachmentItem key={a.id} incidentId={incident.id} attachment={a} deletable={mayDelete(a)} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function UploadForm({ incidentId }: { incidentId: string }) {
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: (chosen: File) => {
      if (chosen.size > MAX_ATTACHMENT_BYTES) {
        throw new ApiError(
          413,
          'payload_too_large',
          `${chosen.name} is larger than 10 MiB, the most one file may be.`,
        );
      }
      setProgress(0);
      return attachmentsApi.upload(incidentId, chosen, setProgress);
    },
    onSuccess: async (attachment) => {
      setDone(`Attached ${attachment.filename}.`);
      setFile(null);
      if (input.current) input.current.value = '';
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['attachments', incidentId] }),
        queryClient.invalidateQueries({ queryKey: ['timeline', incidentId] }),
      ]);
    },
    onSettled: () => setProgress(null),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file) upload.mutate(file);
  };
  const status =
    progress !== null ? `Uploading ${file?.name ?? 'the file'}… ${Math.round(progress * 100)}%` : done;
  return (
    <form className="form attachment-upload" onSubmit={submit} aria-label="Attach a file">
      <label>
        File (at most 10 MiB)
        <input
          ref={input}
          type="file"
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setDone(null);
            upload.reset();
          }}
        />
      </label>
      <div className="actions">
        <button type="submit" className="primary" disabled={!file || upload.isPending}>
          {upload.isPending ? 'Uploading…' : 'Upload'}
        </button>
        {progress !== null ? <progress max={1} value={progress} aria-label="Upload progress" /> : null}
      </div>
      <p className="subtle small" role="status">
        {status ?? ''}
      </p>
      <ErrorMessage error={upload.error} prefix="The file was not attached" />
    </form>
  );
}

function AttachmentItem({
  incidentId,
  attachment,
  deletable,
}: {
  incidentId: string;
  attachment: Attachment;
  deletable: boolean;
}) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => attachmentsApi.remove(incidentId, attachment.id),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['attachments', incidentId] }),
        queryClient.invalidateQueries({ queryKey: ['timeline', incidentId] }),
      ]),
  });
  return (
    <li className="attachment-item">
      <div className="attachment-main">
        <a className="attachment-name" href={attachmentsApi.downloadUrl(incidentId, attachment.id)} download>
          {attachment.filename}
        </a>
        <div className="small subtle">
          {formatBytes(attachment.size)} · {attachment.content_type} · {attachment.uploaded_by.name} ·{' '}
          <time dateTime={attachment.created_at} title={formatDateTime(attachment.created_at)}>
            {formatRelative(attachment.created_at)}
          </time>
        </div>
        <ErrorMessage error={remove.error} prefix="Not deleted" />
      </div>
      {deletable ? (
        <button
          type="button"
          className="danger"
          aria-label={`Delete ${attachment.filename}`}
          disabled={remove.isPending}
          onClick={() => {
            if (window.confirm(`Delete ${attachment.filename}? It cannot be restored.`)) remove.mutate();
          }}
        >
          {remove.isPending ? 'Deleting…' : 'Delete'}
        </button>
      ) : null}
    </li>
  );
}
