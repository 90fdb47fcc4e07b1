import type { Incident } from '@firebreak/schema';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { LIVE_INTERVAL_MS } from '../../lib/live';
import { postmortemStatusLabel } from '../../lib/postmortem-types';

/** Where the post-mortem stands, and the way to its page (editor, action items, comments). */
export function PostmortemCard({ incident }: { incident: Incident }) {
  const document = useQuery({
    queryKey: ['postmortem', incident.id],
    queryFn: () => api.postmortem(incident.id),
    // "The AI is writing a draft" would otherwise stay on the card after the draft landed.
    refetchInterval: (query) => (query.state.data?.ai_draft?.status === 'pending' ? LIVE_INTERVAL_MS : false),
  });
  const draft = document.data?.ai_draft;
  const state = document.data
    ? `${postmortemStatusLabel[document.data.status]}, version ${document.data.version}${draft?.status === 'pending' ? '; the AI is writing a draft' : ''}.`
    : 'Not started.';
  return (
    <section className="card" aria-labelledby="postmortem-card-heading">
      <h2 id="postmortem-card-heading">Post-mortem</h2>
      <ErrorMessage error={document.error} prefix="Could not load the post-mortem" />
      {document.isPending ? null : <p className="subtle small">{state}</p>}
      <Link to={`/incidents/${incident.number}/postmortem`}>
        {document.data ? 'Open the post-mortem' : 'Write the post-mortem'}
      </Link>
    </section>
  );
}
