import type { WebhookDeliveryStatus } from '@firebreak/schema';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TableScroll } from '../../components/TableScroll';
import { api, type OutgoingWebhook, type WebhookDelivery } from '../../lib/api';
import { formatDateTime, formatRelative } from '../../lib/format';
import { LIVE_INTERVAL_MS } from '../../lib/live';

const statusText: Record<WebhookDeliveryStatus, string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

const at = (iso: string) => <span title={formatDateTime(iso)}>{formatRelative(iso)}</span>;

/** What the receiver last answered: the status code, else the network error (timeout, refused…). */
function lastAnswer(delivery: WebhookDelivery): string {
  const parts: string[] = [];
  if (delivery.last_status_code !== null) parts.push(`HTTP ${delivery.last_status_code}`);
  if (delivery.last_error) parts.push(delivery.last_error);
  if (delivery.last_duration_ms !== null) parts.push(`${delivery.last_duration_ms} ms`);
  return parts.join(' · ') || '—';
}

function outcome(delivery: WebhookDelivery) {
  if (delivery.delivered_at) return <>delivered {at(delivery.delivered_at)}</>;
  if (delivery.next_attempt_at) return <>next try {at(delivery.next_attempt_at)}</>;
  return '—';
}

/** The newest deliveries of one webhook (the API keeps the last attempt of each), refreshed live. */
export function DeliveryLog({ webhook }: { webhook: OutgoingWebhook }) {
  const deliveries = useQuery({
    queryKey: ['outgoing-webhooks', webhook.id, 'deliveries'],
    queryFn: () => api.webhookDeliveries(webhook.id),
    refetchInterval: LIVE_INTERVAL_MS,
  });
  const list = deliveries.data?.deliveries ?? [];
  const headingId = `deliveries-${webhook.id}-heading`;
  return (
    <section className="card stack" aria-labelledby={headingId}>
      <h2 id={headingId}>Deliveries of “{webhook.name}”</h2>
      <ErrorMessage error={deliveries.error} prefix="Could not load deliveries" />
      <TableScroll label={`Deliveries of ${webhook.name}`}>
        <table aria-label={`Deliveries of ${webhook.name}`}>
          <thead>
            <tr>
              <th>Event</th>
              <th>Incident</th>
              <th>Status</th>
              <th className="num">Attempts</th>
              <th>Last answer</th>
              <th>Queued</th>
              <th>Outcome</th>
            </tr>
          </thead>
          <tbody>
            {list.map((delivery) => (
              <tr key={delivery.id}>
                <td className="mono small">{delivery.event}</td>
                <td>
                  <Link to={`/incidents/${delivery.incident_id}`}>Open</Link>
                </td>
                <td>
                  <span className={`badge dl-${delivery.status}`}>{statusText[delivery.status]}</span>
                </td>
                <td className="num">{delivery.attempts}</td>
                <td className="small">{lastAnswer(delivery)}</td>
                <td>{at(delivery.created_at)}</td>
                <td>{outcome(delivery)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {deliveries.data && list.length === 0 ? <p className="empty">No deliveries yet.</p> : null}
      </TableScroll>
    </section>
  );
}
