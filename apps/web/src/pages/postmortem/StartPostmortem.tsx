import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Markdown } from '../../components/Markdown';
import { ApiError, api } from '../../lib/api';

/**
 * No post-mortem yet: pick a template (the default one is chosen) and start, or ask the AI for a first
 * draft. The AI fills the sections of the document's template, so asking starts the document from the
 * picked template first (the API drafts a document that does not exist yet in the default template).
 */
export function StartPostmortem(props: { incidentId: string; writer: boolean; aiConfigured: boolean }) {
  const { incidentId, writer, aiConfigured } = props;
  const queryClient = useQueryClient();
  const templates = useQuery({ queryKey: ['postmortem-templates'], queryFn: api.postmortemTemplates });
  const [picked, setPicked] = useState('');
  const items = templates.data?.items ?? [];
  const chosen = items.find((t) => t.id === picked) ?? items.find((t) => t.is_default) ?? items[0];
  // Version 0 is "there is none yet": if someone else started it meanwhile, the API refuses instead
  // of setting their document back to a draft (docs/api.md#post-mortems).
  const startFromTemplate = () =>
    api.savePostmortem(incidentId, {
      status: 'draft',
      version: 0,
      ...(chosen ? { template_id: chosen.id } : {}),
    });
  const showTheirsOnConflict = (error: Error) => {
    // Theirs is the one to show: the editor replaces this form once it is read.
    if (error instanceof ApiError && error.code === 'postmortem_conflict') {
      return queryClient.invalidateQueries({ queryKey: ['postmortem', incidentId] });
    }
  };
  const start = useMutation({
    mutationFn: startFromTemplate,
    onSuccess: (document) => queryClient.setQueryData(['postmortem', incidentId], document),
    onError: showTheirsOnConflict,
  });
  const draftWithAi = useMutation({
    mutationFn: async () => {
      await startFromTemplate();
      return api.requestPostmortem(incidentId);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['postmortem', incidentId] }),
    onError: showTheirsOnConflict,
  });
  if (!writer) return <p className="subtle small">Nobody has started this incident's post-mortem yet.</p>;
  return (
    <div className="stack">
      <p className="subtle small" style={{ margin: 0 }}>
        No post-mortem yet. Start from a template; its headings are the sections to fill in.
      </p>
      <ErrorMessage error={templates.error} prefix="Could not load the templates" />
      <div className="actions" style={{ alignItems: 'end' }}>
        <label>
          Template
          <select
            value={chosen?.id ?? ''}
            onChange={(e) => setPicked(e.target.value)}
            disabled={items.length === 0}
          >
            {items.map((template) => (
              <option key={template.id} value={template.id}>
                {template.name}
                {template.is_default ? ' (default)' : ''}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="primary"
          disabled={start.isPending || !chosen}
          onClick={() => start.mutate()}
        >
          {start.isPending ? 'Starting…' : 'Start from this template'}
        </button>
        {aiConfigured ? (
          <button
            type="button"
            disabled={draftWithAi.isPending || start.isPending || !chosen}
            onClick={() => draftWithAi.mutate()}
          >
            {draftWithAi.isPending ? 'Asking…' : 'Draft it with AI instead'}
          </button>
        ) : null}
      </div>
      <ErrorMessage error={start.error} prefix="The post-mortem was not started" />
      <ErrorMessage error={draftWithAi.error} prefix="The AI draft was not requested" />
      {chosen ? (
        <details>
          <summary>What the template “{chosen.name}” contains</summary>
          <Markdown label={`Template ${chosen.name}`}>{chosen.content}</Markdown>
        </details>
      ) : null}
    </div>
  );
}
