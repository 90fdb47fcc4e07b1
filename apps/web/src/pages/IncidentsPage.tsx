import type { IncidentSeverity, IncidentStatus } from '@firebreak/schema';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { SeverityBadge, StatusBadge, StormBadge } from '../components/Badges';
import { ErrorMessage } from '../components/ErrorMessage';
import { api } from '../lib/api';
import { useFocusOnClose } from '../lib/focus';
import { formatDateTime, formatDuration, formatRelative } from '../lib/format';
import { severities, severityLabel } from '../lib/labels';
import { LIVE_INTERVAL_MS } from '../lib/live';
import { canWrite, useMe } from '../lib/session';
import { useUrlFilters } from '../lib/url-filters';
import { NewIncidentForm } from './NewIncidentForm';
import { StatusTabs } from './StatusTabs';
import { useArrivalNotice } from './use-arrival-notice';

export function IncidentsPage() {
  const { filter, setFilter } = useUrlFilters();
  const status = filter('status') as IncidentStatus | '';
  const severity = filter('severity') as IncidentSeverity | '';
  const me = useMe();
  const [creating, setCreating] = useState(false);
  const newIncident = useRef<HTMLButtonElement>(null);
  useFocusOnClose(creating, () => newIncident.current);
  const list = useQuery({
    queryKey: ['incidents', { status, severity }],
    queryFn: () => api.incidents({ status, severity, limit: 100 }),
    refetchInterval: LIVE_INTERVAL_MS,
  });
  const arrival = useArrivalNotice(list.data?.incidents, `${status}|${severity}`);

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Incidents</h1>
          <p className="subtle small">Updates live every few seconds.</p>
          <p role="status" className="visually-hidden" data-testid="arrival-notice">
            {arrival}
          </p>
        </div>
        {canWrite(me.data, 'member') && !creating ? (
          <button ref={newIncident} type="button" className="primary" onClick={() => setCreating(true)}>
            New Incident
          </button>
        ) : null}
      </div>
      {creating ? <NewIncidentForm onClose={() => setCreating(false)} /> : null}
      <div className="actions" style={{ justifyContent: 'space-between', marginBottom: '0.5rem' }}>
        <StatusTabs selected={status} onSelect={(value) => setFilter('status', value)} />
        <label className="inline">
          Severity
          <select
            value={severity}
            onChange={(e) => setFilter('severity', e.target.value)}
            style={{ width: 'auto' }}
          >
            <option value="">All</option>
            {severities.map((s) => (
              <option key={s} value={s}>
                {severityLabel[s]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorMessage error={list.error} prefix="Could not load incidents" />
      <div className="card table-wrap" style={{ padding: 0 }}>
        <table aria-label="Incidents">
          <thead>
            <tr>
              <th className="num">#</th>
              <th>Title</th>
              <th>Severity</th>
              <th>Status</th>
              <th data-narrow="hide">Commander</th>
              <th data-narrow="hide">Opened</th>
              <th data-narrow="hide" className="num">
                Alerts
              </th>
              <th className="num">MTTR</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.incidents.map((incident) => (
              <tr key={incident.id}>
                <td className="num">{incident.number}</td>
                <td>
                  <Link className="row-link" to={`/incidents/${incident.number}`}>
                    {incident.title}
                  </Link>
                  {incident.storm ? (
                    <div>
                      <StormBadge storm={incident.storm} />
                    </div>
                  ) : null}
                  {incident.all_alerts_resolved && incident.status !== 'resolved' ? (
                    <div className="small subtle">All alerts resolved — ready to resolve</div>
                  ) : null}
                </td>
                <td>
                  <SeverityBadge severity={incident.severity} />
                </td>
                <td>
                  <StatusBadge status={incident.status} />
                </td>
                <td data-narrow="hide">{incident.commander?.name ?? <span className="subtle">—</span>}</td>
                <td data-narrow="hide" title={formatDateTime(incident.created_at)}>
                  {formatRelative(incident.created_at)}
                </td>
                <td data-narrow="hide" className="num">
                  {incident.alert_count}
                </td>
                <td className="num">
                  {incident.mttr_seconds === null ? '—' : formatDuration(incident.mttr_seconds)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.isPending ? <p className="empty">Loading…</p> : null}
        {list.data?.incidents.length === 0 ? (
          <p className="empty">No incidents match these filters.</p>
        ) : null}
        {list.data?.next_cursor ? (
          <p className="empty small">Showing the newest 100. Narrow the filters to see others.</p>
        ) : null}
      </div>
    </>
  );
}
