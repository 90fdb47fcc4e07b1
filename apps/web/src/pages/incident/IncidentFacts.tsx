import type { Incident } from '@firebreak/schema';
import { formatDateTime, formatDuration } from '../../lib/format';

/**
 * Chat channels open in their chat service: Slack's redirect link works for any workspace member, and
 * Teams' channel deep link for any member of the team.
 */
const channelUrl = (channel: Incident['chat_channels'][number]) =>
  channel.platform === 'teams'
    ? `https://teams.microsoft.com/l/channel/${encodeURIComponent(channel.id)}/${encodeURIComponent(channel.name)}`
    : `https://slack.com/app_redirect?channel=${encodeURIComponent(channel.id)}`;

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
          {incident.chat_channels.length > 0 ? (
            incident.chat_channels.map((channel, index) => (
              <span key={channel.platform}>
                {index > 0 ? ' · ' : null}
                <a href={channelUrl(channel)} target="_blank" rel="noreferrer">
                  {channel.platform === 'teams' ? `Teams: ${channel.name}` : `#${channel.name}`}
                </a>
              </span>
            ))
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
