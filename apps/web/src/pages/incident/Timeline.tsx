import { useQuery } from '@tanstack/react-query';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { LIVE_INTERVAL_MS } from '../../lib/live';
import { entryText, entryTitle } from '../../lib/timeline-text';

/** The immutable record, newest first on screen (the API answers oldest first). */
export function Timeline({ incidentId }: { incidentId: string }) {
  const timeline = useQuery({
    queryKey: ['timeline', incidentId],
    queryFn: () => api.timeline(incidentId),
    refetchInterval: LIVE_INTERVAL_MS,
  });
  const entries = [...(timeline.data?.entries ?? [])].reverse();
  return (
    <section className="card" aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Timeline</h2>
      <ErrorMessage error={timeline.error} prefix="Could not load the timeline" />
      <ol className="timeline" aria-label="Timeline entries">
        {entries.map((entry) => (
          <li key={entry.id} data-entry-type={entry.type}>
            <time dateTime={entry.created_at}>{formatDateTime(entry.created_at)}</time>
            <div>
              <div className="entry-type">
                {entryTitle[entry.type]}
                {entry.actor.name ? ` · ${entry.actor.name}` : ` · ${entry.actor.type}`}
              </div>
              <div className="entry-text">{entryText(entry)}</div>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
