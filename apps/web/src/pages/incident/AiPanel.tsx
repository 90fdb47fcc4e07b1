import type { Incident } from '@firebreak/schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { LIVE_INTERVAL_MS } from '../../lib/live';
import { canWrite, useMe } from '../../lib/session';

/**
 * AI summary and post-mortem draft (docs/api.md, "AI"), only when a provider is configured; otherwise
 * one line says so, rather than buttons that would answer 409.
 */
export function AiPanel({ incident }: { incident: Incident }) {
  const me = useMe();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: ['settings'], queryFn: api.settings, staleTime: 60_000 });
  const configured = settings.data?.ai.configured ?? false;
  // The same query as the timeline's, so this reads the cache the timeline keeps fresh.
  const timeline = useQuery({
    queryKey: ['timeline', incident.id],
    queryFn: () => api.timeline(incident.id),
    refetchInterval: LIVE_INTERVAL_MS,
  });
  const postmortem = useQuery({
    queryKey: ['postmortem', incident.id],
    queryFn: () => api.postmortem(incident.id),
    enabled: configured && incident.status === 'resolved',
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? LIVE_INTERVAL_MS : false),
  });
  const summarise = useMutation({
    mutationFn: () => api.requestSummary(incident.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['timeline', incident.id] }),
  });
  const redraft = useMutation({
    mutationFn: () => api.requestPostmortem(incident.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['postmortem', incident.id] }),
  });

  if (!settings.data) return null;
  if (!configured) {
    return (
      <section className="card" aria-label="AI">
        <h2>AI</h2>
        <p className="subtle small" style={{ margin: 0 }}>
          Summaries and post-mortem drafts appear here when an AI provider is configured (AI_PROVIDER).
        </p>
      </section>
    );
  }
  const summary = [...(timeline.data?.entries ?? [])].reverse().find((entry) => entry.type === 'ai_summary');
  const writer = canWrite(me.data, 'member');
  return (
    <section className="card stack" aria-label="AI">
      <div>
        <h2>AI summary</h2>
        {summary ? (
          <>
            <p className="entry-text">{String(summary.data.text ?? '')}</p>
            <p className="small subtle">{formatDateTime(summary.created_at)}</p>
          </>
        ) : (
          <p className="subtle small">No summary yet.</p>
        )}
        {writer ? (
          <button type="button" disabled={summarise.isPending} onClick={() => summarise.mutate()}>
            {summarise.isSuccess ? 'Summary requested…' : 'Summarise now'}
          </button>
        ) : null}
        <ErrorMessage error={summarise.error} />
      </div>
      {incident.status === 'resolved' ? (
        <div>
          <h2>Post-mortem draft</h2>
          <ErrorMessage error={postmortem.error} />
          {postmortem.data === null ? <p className="subtle small">Not drafted yet.</p> : null}
          {postmortem.data?.status === 'pending' ? <p className="subtle small">Drafting…</p> : null}
          {postmortem.data?.error ? (
            <ErrorMessage error={new Error(postmortem.data.error)} prefix="Drafting failed" />
          ) : null}
          {postmortem.data?.content ? <pre>{postmortem.data.content}</pre> : null}
          {writer ? (
            <button type="button" disabled={redraft.isPending} onClick={() => redraft.mutate()}>
              Redraft post-mortem
            </button>
          ) : null}
          <ErrorMessage error={redraft.error} />
        </div>
      ) : null}
    </section>
  );
}
