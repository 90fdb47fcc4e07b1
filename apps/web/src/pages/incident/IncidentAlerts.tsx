import { useQuery } from '@tanstack/react-query';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { formatRelative } from '../../lib/format';
import { LIVE_INTERVAL_MS } from '../../lib/live';

export function IncidentAlerts({ incidentId }: { incidentId: string }) {
  const alerts = useQuery({
    queryKey: ['incident-alerts', incidentId],
    queryFn: () => api.incidentAlerts(incidentId),
    refetchInterval: LIVE_INTERVAL_MS * 2,
  });
  return (
    <section className="card" aria-labelledby="alerts-heading">
      <h2 id="alerts-heading">Alerts</h2>
      <ErrorMessage error={alerts.error} prefix="Could not load alerts" />
      {alerts.data?.alerts.length === 0 ? <p className="subtle small">No alerts: opened by hand.</p> : null}
      <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {alerts.data?.alerts.map((alert) => (
          <li key={alert.id} style={{ padding: '0.4rem 0', borderBottom: '1px solid var(--border)' }}>
            <div style={{ fontWeight: 600 }}>{alert.title}</div>
            <div className="small subtle">
              {alert.status} · {alert.severity} · {alert.source ?? 'unknown source'} ·{' '}
              {formatRelative(alert.received_at)}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
