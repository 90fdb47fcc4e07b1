import type { Incident } from '@firebreak/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Markdown } from '../../components/Markdown';
import { ApiError, api } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import {
  type PostmortemDocument,
  type PostmortemStatus,
  postmortemStatuses,
  postmortemStatusLabel,
} from '../../lib/postmortem-types';
import { AiDraftNotice } from './AiDraftNotice';
import { ConflictNotice, KeptText } from './ConflictNotice';
import { refocusIfDropped } from './refocus';
import { type Unsaved, unsavedAfterSave } from './unsaved-edits';
import { useLeaveGuard } from './use-leave-guard';

interface Props {
  incident: Incident;
  document: PostmortemDocument;
  writer: boolean;
  aiConfigured: boolean;
  /** Reads the document again; false when that failed (what is on the page is then not the latest). */
  reload: () => Promise<boolean>;
}

/**
 * The Markdown and its live preview, side by side. A save names the version the text started from, so
 * two people editing at once cannot silently overwrite each other: the second save is refused, their
 * text stays in the editor, and when they load the other person's version their own stays on the page.
 */
export function PostmortemEditor({ incident, document, writer, aiConfigured, reload }: Props) {
  const queryClient = useQueryClient();
  const [unsaved, setUnsaved] = useState<Unsaved | null>(null);
  const [kept, setKept] = useState<string | null>(null);
  const [loadingLatest, setLoadingLatest] = useState(false);
  const textField = useRef<HTMLTextAreaElement>(null);
  const content = unsaved?.content ?? document.content;
  const status = unsaved?.status ?? document.status;
  const edit = (changes: Partial<Omit<Unsaved, 'baseVersion'>>) =>
    setUnsaved({ content, status, baseVersion: unsaved?.baseVersion ?? document.version, ...changes });
  const save = useMutation({
    mutationFn: (input: Unsaved) =>
      api.savePostmortem(incident.id, {
        status: input.status,
        content: input.content,
        version: input.baseVersion,
      }),
    onSuccess: (saved, sent) => {
      queryClient.setQueryData(['postmortem', incident.id], saved);
      // What was typed while the save was on its way is not what was saved: it stays.
      setUnsaved((current) => unsavedAfterSave(current, sent, saved.version));
      refocusIfDropped(textField.current);
    },
  });
  const conflict = save.error instanceof ApiError && save.error.code === 'postmortem_conflict';
  const loadLatest = async () => {
    setLoadingLatest(true);
    const loaded = await reload();
    setLoadingLatest(false);
    // Not loaded: the page still shows the old version, and the person's text stays where it is.
    if (!loaded) return;
    setKept(content);
    setUnsaved(null);
    save.reset();
  };
  const changed =
    unsaved !== null && (unsaved.content !== document.content || unsaved.status !== document.status);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending || !changed) return;
    save.mutate({ content, status, baseVersion: unsaved?.baseVersion ?? document.version });
  };
  // The AI draft is the text now; what the person had not saved stays on the page to copy from.
  const replaced = () => {
    if (changed) setKept(content);
    setUnsaved(null);
  };
  useLeaveGuard(changed || kept !== null, 'Leave the post-mortem? Your unsaved text will be lost.');

  return (
    <div className="stack">
      <p className="subtle small" style={{ margin: 0 }}>
        {postmortemStatusLabel[document.status]} · version {document.version} · saved{' '}
        {formatDateTime(document.updated_at)}
        {document.updated_by ? ` by ${document.updated_by.name}` : ''}
        {document.content_source === 'ai' ? ' · written by the AI' : ''}
        {document.content_source === 'template' ? ' · the template, not yet filled in' : ''} ·{' '}
        <a href={api.postmortemMarkdownUrl(incident.id)} download>
          Download Markdown
        </a>
      </p>
      <AiDraftNotice
        incidentId={incident.id}
        document={document}
        writer={writer}
        aiConfigured={aiConfigured}
        hasUnsavedChanges={changed}
        onReplaced={replaced}
      />
      {writer ? (
        <form className="stack" onSubmit={submit} aria-label="Post-mortem editor">
          <div className="actions" style={{ alignItems: 'end' }}>
            <label>
              Status
              <select
                value={status}
                onChange={(e) => edit({ status: e.target.value as PostmortemStatus })}
                style={{ width: 'auto' }}
              >
                {postmortemStatuses.map((value) => (
                  <option key={value} value={value}>
                    {postmortemStatusLabel[value]}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="primary" disabled={save.isPending || !changed}>
              {save.isPending ? 'Saving…' : 'Save post-mortem'}
            </button>
            <span className="subtle small" aria-live="polite">
              {changed ? 'Unsaved changes' : save.isSuccess ? 'Saved' : ''}
            </span>
          </div>
          {conflict ? (
            <ConflictNotice onLoadLatest={loadLatest} loading={loadingLatest} />
          ) : (
            <ErrorMessage error={save.error} prefix="The post-mortem was not saved" />
          )}
          {kept !== null ? <KeptText text={kept} onDismiss={() => setKept(null)} /> : null}
          <div className="editor-grid">
            <label>
              Markdown <span className="hint">(HTML is not rendered)</span>
              <textarea
                ref={textField}
                className="mono markdown-source"
                value={content}
                onChange={(e) => edit({ content: e.target.value })}
                readOnly={loadingLatest}
                spellCheck
                rows={28}
              />
            </label>
            <div className="stack" style={{ gap: '0.35rem' }}>
              <span className="preview-label" id="postmortem-preview-label">
                Preview
              </span>
              <section className="markdown-preview" aria-labelledby="postmortem-preview-label">
                <Markdown>{content}</Markdown>
              </section>
            </div>
          </div>
        </form>
      ) : (
        <Markdown label="Post-mortem">{document.content}</Markdown>
      )}
    </div>
  );
}
