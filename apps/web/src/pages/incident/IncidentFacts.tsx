import type { Incident } from '@firebreak/schema';
import { formatDateTime, formatDuration } from '../../lib/format';

/** Chat channels open in the chat service; Slack's redirect link works for any workspace member. */
const channelUrl = (channelId: string) =>
  `https://slack.com/app_redirect?channel=${encodeURIComponent(channelId)}`;

export function IncidentFacts({ incident }: { incident: Incident }) {
  return (
    <section className="card" aria-label="Details">
      {incident.mttr_seconds !== null ? (
        <div style={{ marginBottom: '0.75rem' }}>
          <div className="subtle small">Time to resolve (MTTR)</div>
          <div className="mttr" data-testid="mttr">
            {formatDuration(incident.mttr_seconds)}
          </div>
        </div>
      ) : null}
      <dl className="facts">
        <dt>Commander</dt>
        <dd data-testid="commander">{incident.commander?.name ?? 'Nobody yet'}</dd>
        <dt>Chat</dt>
        <dd>
          {incident.chat_channel ? (
            <a href={channelUrl(incident.chat_channel.id)} target="_blank" rel="noreferrer">
              #{incident.chat_channel.name}
            </a>
          ) : (
            <span className="subtle">No channel</span>
          )}
        </dd>
        <dt>Opened</dt>
        <dd>{formatDateTime(incident.created_at)}</dd>
        <dt>Acknowledged</dt>
        <dd>{incident.acknowledged_at ? formatDateTime(incident.acknowledged_at) : '—'}</dd>
        <dt>Resolved</dt>
        <dd>{incident.resolved_at ? formatDateTime(incident.resolved_at) : '—'}</dd>
        <dt>Source</dt>
        <dd>{incident.source}</dd>
        <dt>Alerts</dt>
        <dd>{incident.alert_count}</dd>
        {incident.storm ? (
          <>
            <dt>Storm</dt>
            <dd data-testid="storm-facts">
              {incident.storm.absorbed_alerts} alerts absorbed since{' '}
              {formatDateTime(incident.storm.started_at)}; last at{' '}
              {formatDateTime(incident.storm.last_absorbed_at)}
              {incident.storm.calmed_at
                ? `; calmed at ${formatDateTime(incident.storm.calmed_at)}`
                : '; still taking alerts that would open incidents'}
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
