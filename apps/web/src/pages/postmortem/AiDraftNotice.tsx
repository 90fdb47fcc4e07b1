import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Markdown } from '../../components/Markdown';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import type { PostmortemDocument } from '../../lib/postmortem-types';
import { RequestAiDraft } from './RequestAiDraft';

interface Props {
  incidentId: string;
  document: PostmortemDocument;
  writer: boolean;
  aiConfigured: boolean;
  hasUnsavedChanges: boolean;
  onReplaced: () => void;
}

/**
 * Where the AI's draft stands. A draft that lands after someone edited the text never overwrites it: it
 * waits here, and "Replace with the AI draft" saves it as the document's text after a confirmation.
 */
export function AiDraftNotice({
  incidentId,
  document,
  writer,
  aiConfigured,
  hasUnsavedChanges,
  onReplaced,
}: Props) {
  const queryClient = useQueryClient();
  const draft = document.ai_draft;
  const replace = useMutation({
    mutationFn: (content: string) =>
      api.savePostmortem(incidentId, { status: document.status, content, version: document.version }),
    onSuccess: (saved) => {
      queryClient.setQueryData(['postmortem', incidentId], saved);
      onReplaced();
    },
  });
  const redraft =
    writer && aiConfigured ? (
      <RequestAiDraft incidentId={incidentId} label="Ask the AI for a new draft" />
    ) : null;

  if (!draft) return redraft ? <div className="actions">{redraft}</div> : null;
  if (draft.status === 'pending') {
    return (
      <p className="alert-box alert-info" role="status">
        The AI is writing a draft; it fills the sections when it is ready.
      </p>
    );
  }
  if (draft.status === 'failed') {
    return (
      <div className="stack">
        <ErrorMessage error={new Error(draft.error ?? 'no reason given')} prefix="The AI draft failed" />
        {redraft ? <div className="actions">{redraft}</div> : null}
      </div>
    );
  }
  const generated = draft.generated_at ? ` (${formatDateTime(draft.generated_at)})` : '';
  if (draft.applied || !draft.content) {
    return (
      <div className="actions">
        <span className="subtle small">The AI's draft{generated} was used for this text.</span>
        {redraft}
      </div>
    );
  }
  const content = draft.content;
  const confirmReplace = () => {
    const lost = hasUnsavedChanges
      ? 'The saved text will be replaced; your unsaved changes stay on the page to copy from.'
      : 'The current text will be replaced.';
    if (window.confirm(`Replace the post-mortem with the AI draft? ${lost}`)) replace.mutate(content);
  };
  return (
    <div className="alert-box alert-info stack" role="status">
      <span>
        An AI draft is ready{generated}. It was not applied because people have edited the text since.
      </span>
      <details>
        <summary>Read the AI draft</summary>
        <Markdown label="AI draft">{content}</Markdown>
      </details>
      {writer ? (
        <div className="actions">
          <button type="button" disabled={replace.isPending} onClick={confirmReplace}>
            Replace with the AI draft
          </button>
          {redraft}
        </div>
      ) : null}
      <ErrorMessage error={replace.error} prefix="The AI draft was not applied" />
    </div>
  );
}
