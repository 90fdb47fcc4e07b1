import type { NoisyAlert } from '@firebreak/schema';
import { TableScroll } from '../../components/TableScroll';

/** The alert titles that fired most in the range, with what became of their alerts. */
export function NoisiestAlerts({ alerts }: { alerts: NoisyAlert[] }) {
  return (
    <section className="card" aria-labelledby="noisiest-alerts">
      <h2 id="noisiest-alerts">Noisiest alerts</h2>
      <p className="subtle small">
        The 20 titles with the most alerts started in the range. Suppressed: by a routing rule or held by a
        maintenance window. Auto-resolved: the sender resolved it before anyone acknowledged its incident.
      </p>
      {alerts.length === 0 ? (
        <p className="empty">No alerts in this range.</p>
      ) : (
        <TableScroll label="Noisiest alerts table">
          <table aria-label="Noisiest alerts">
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Dedup key</th>
                <th scope="col">Alerts</th>
                <th scope="col">Incidents</th>
                <th scope="col">Suppressed</th>
                <th scope="col">Auto-resolved</th>
              </tr>
            </thead>
            <tbody>
              {alerts.map((alert) => (
                <tr key={alert.title}>
                  <td>{alert.title}</td>
                  <td>{alert.dedup_key ?? <span className="subtle">several</span>}</td>
                  <td>{alert.alerts}</td>
                  <td>{alert.incidents}</td>
                  <td>{alert.suppressed}</td>
                  <td>{alert.auto_resolved}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
