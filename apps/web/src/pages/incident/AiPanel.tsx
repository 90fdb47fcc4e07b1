import type { Incident } from '@firebreak/schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { LIVE_INTERVAL_MS } from '../../lib/live';
import { canWrite, useMe } from '../../lib/session';

/**
 * AI summary (docs/api.md, "AI"), only when a provider is configured; otherwise one line says so, rather
 * than a button that would answer 409. Post-mortem drafts live on the post-mortem page (PostmortemCard).
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
  const summarise = useMutation({
    mutationFn: () => api.requestSummary(incident.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['timeline', incident.id] }),
  });

  if (!settings.data) return null;
  if (!configured) {
    return (
      <section className="card" aria-label="AI">
        <h2>AI</h2>
        <p className="subtle small" style={{ margin: 0 }}>
          Summaries appear here when an AI provider is configured (AI_PROVIDER).
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
    </section>
  );
}
