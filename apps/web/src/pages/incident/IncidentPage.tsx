import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { SeverityBadge, StatusBadge, StormBadge } from '../../components/Badges';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { LIVE_INTERVAL_MS } from '../../lib/live';
import { AiPanel } from './AiPanel';
import { AttachmentsCard } from './AttachmentsCard';
import { IncidentActions } from './IncidentActions';
import { IncidentAlerts } from './IncidentAlerts';
import { IncidentFacts } from './IncidentFacts';
import { NoteForm } from './NoteForm';
import { PostmortemCard } from './PostmortemCard';
import { StatusUpdatesCard } from './StatusUpdatesCard';
import { Timeline } from './Timeline';

export function IncidentPage() {
  const { ref = '' } = useParams();
  const incident = useQuery({
    queryKey: ['incident', ref],
    queryFn: () => api.incident(ref),
    refetchInterval: LIVE_INTERVAL_MS,
  });
  if (incident.isPending) return <p className="subtle">Loading…</p>;
  if (incident.error) {
    return (
      <>
        <p>
          <Link to="/incidents">← Incidents</Link>
        </p>
        <ErrorMessage error={incident.error} prefix={`Incident ${ref}`} />
      </>
    );
  }
  const data = incident.data;
  return (
    <>
      <p className="small">
        <Link to="/incidents">← Incidents</Link>
      </p>
      <div className="page-head">
        <div>
          <h1>
            <span className="subtle">#{data.number}</span> {data.title}
          </h1>
          <div className="actions">
            <SeverityBadge severity={data.severity} />
            <StatusBadge status={data.status} />
            {data.storm ? <StormBadge storm={data.storm} /> : null}
            {data.all_alerts_resolved && data.status !== 'resolved' ? (
              <span className="badge plain st-resolved">All alerts resolved</span>
            ) : null}
          </div>
        </div>
      </div>
      <div className="grid-2">
        <div className="stack">
          <IncidentActions incident={data} />
          {data.description ? (
            <section className="card" aria-label="Description">
              <h2>Description</h2>
              <p className="entry-text" style={{ margin: 0 }}>
                {data.description}
              </p>
            </section>
          ) : null}
          {data.status === 'resolved' ? null : <NoteForm incidentId={data.id} />}
          <Timeline incidentId={data.id} />
        </div>
        <div className="stack">
          <IncidentFacts incident={data} />
          <StatusUpdatesCard incident={data} />
          <PostmortemCard incident={data} />
          <AttachmentsCard incident={data} />
          <AiPanel incident={data} />
          <IncidentAlerts incidentId={data.id} />
        </div>
      </div>
    </>
  );
}
