import { fixedAlertSources } from '@firebreak/domain/browser';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorMessage } from '../components/ErrorMessage';
import { TableScroll } from '../components/TableScroll';
import { api } from '../lib/api';
import { formatDateTime, formatRelative } from '../lib/format';
import { LIVE_INTERVAL_MS } from '../lib/live';
import { useUrlFilters } from '../lib/url-filters';

export function AlertsPage() {
  const { filter, setFilter } = useUrlFilters();
  const status = filter('status');
  const source = filter('source');
  const alerts = useQuery({
    queryKey: ['alerts', { status, source }],
    queryFn: () => api.alerts({ status, source }),
    refetchInterval: LIVE_INTERVAL_MS,
  });
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Alerts</h1>
          <p className="subtle small">Everything the monitoring tools sent, newest first. Updates live.</p>
        </div>
        <div className="actions">
          <label className="inline">
            Status
            <select
              value={status}
              onChange={(e) => setFilter('status', e.target.value)}
              style={{ width: 'auto' }}
            >
              <option value="">All</option>
              <option value="firing">Firing</option>
              <option value="resolved">Resolved</option>
            </select>
          </label>
          <label className="inline">
            Source
            <input
              list="known-sources"
              value={source}
              onChange={(e) => setFilter('source', e.target.value.trim())}
              placeholder="any"
              style={{ width: '12rem' }}
            />
            <datalist id="known-sources">
              {fixedAlertSources.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
          </label>
        </div>
      </div>
      <ErrorMessage error={alerts.error} prefix="Could not load alerts" />
      <TableScroll label="Alerts" className="card" style={{ padding: 0 }}>
        <table aria-label="Alerts">
          <thead>
            <tr>
              <th>Title</th>
              <th>Severity</th>
              <th>Status</th>
              <th>Source</th>
              <th>Labels</th>
              <th>Received</th>
              <th>Incident</th>
            </tr>
          </thead>
          <tbody>
            {alerts.data?.alerts.map((alert) => (
              <tr key={alert.id}>
                <td style={{ fontWeight: 600 }}>{alert.title}</td>
                <td>{alert.severity}</td>
                <td>
                  {alert.status}
                  {/* Stored but paging nobody until the window ends (docs/api.md#maintenance-windows). */}
                  {alert.suppressed_by === 'maintenance' ? (
                    <>
                      {' '}
                      <span className="badge plain mw-active" data-testid="held-by-maintenance">
                        held by maintenance
                      </span>
                    </>
                  ) : null}
                </td>
                <td>{alert.source ?? '—'}</td>
                <td className="mono small">
                  {Object.entries(alert.labels)
                    .map(([key, value]) => `${key}=${value}`)
                    .join(' ')}
                </td>
                <td title={formatDateTime(alert.received_at)}>{formatRelative(alert.received_at)}</td>
                <td>{alert.incident_id ? <Link to={`/incidents/${alert.incident_id}`}>Open</Link> : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {alerts.data?.alerts.length === 0 ? <p className="empty">No alerts.</p> : null}
      </TableScroll>
    </>
  );
}
