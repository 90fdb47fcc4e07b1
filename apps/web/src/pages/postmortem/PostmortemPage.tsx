import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { StatusBadge } from '../../components/Badges';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { ActionItemsSection } from './ActionItemsSection';
import { CommentsSection } from './CommentsSection';
import { PostmortemSection } from './PostmortemSection';

/**
 * An incident's post-mortem (docs/api.md#post-mortems): the document, its action items and the
 * discussion, on a page of its own so the editor has room and the incident page stays an outage screen.
 */
export function PostmortemPage() {
  const { ref = '' } = useParams();
  const incident = useQuery({ queryKey: ['incident', ref], queryFn: () => api.incident(ref) });
  const back = (
    <p className="small">
      <Link to={`/incidents/${encodeURIComponent(ref)}`}>← Incident {ref}</Link>
    </p>
  );
  if (incident.isPending) return <p className="subtle">Loading…</p>;
  if (incident.error) {
    return (
      <>
        {back}
        <ErrorMessage error={incident.error} prefix={`Incident ${ref}`} />
      </>
    );
  }
  const data = incident.data;
  return (
    <>
      {back}
      <div className="page-head">
        <div>
          <h1>
            Post-mortem: <span className="subtle">#{data.number}</span> {data.title}
          </h1>
          <div className="actions">
            <StatusBadge status={data.status} />
          </div>
        </div>
      </div>
      <div className="stack">
        <PostmortemSection incident={data} />
        <div className="grid-2">
          <ActionItemsSection incidentId={data.id} />
          <CommentsSection incidentId={data.id} />
        </div>
      </div>
    </>
  );
}
