import type { Incident } from '@firebreak/schema';
import { useQuery } from '@tanstack/react-query';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { LIVE_INTERVAL_MS } from '../../lib/live';
import { canWrite, useMe } from '../../lib/session';
import { PostmortemEditor } from './PostmortemEditor';
import { StartPostmortem } from './StartPostmortem';

/** The document once it exists, else the way to start one (a template, or an AI draft). */
export function PostmortemSection({ incident }: { incident: Incident }) {
  const me = useMe();
  const writer = canWrite(me.data, 'member');
  const settings = useQuery({ queryKey: ['settings'], queryFn: api.settings, staleTime: 60_000 });
  const document = useQuery({
    queryKey: ['postmortem', incident.id],
    queryFn: () => api.postmortem(incident.id),
    // Only an AI draft being written changes the document without someone on this page saving.
    refetchInterval: (query) => (query.state.data?.ai_draft?.status === 'pending' ? LIVE_INTERVAL_MS : false),
  });
  const aiConfigured = settings.data?.ai.configured ?? false;
  return (
    <section className="card stack" aria-labelledby="postmortem-heading">
      <h2 id="postmortem-heading">Post-mortem</h2>
      <ErrorMessage error={document.error} prefix="Could not load the post-mortem" />
      {document.isPending ? <p className="subtle small">Loading…</p> : null}
      {document.data === null ? (
        <StartPostmortem incidentId={incident.id} writer={writer} aiConfigured={aiConfigured} />
      ) : null}
      {document.data ? (
        <PostmortemEditor
          incident={incident}
          document={document.data}
          writer={writer}
          aiConfigured={aiConfigured}
          reload={async () => !(await document.refetch()).isError}
        />
      ) : null}
    </section>
  );
}
