import type { AuditEntityType, AuditEntry } from '@firebreak/schema';
import { useInfiniteQuery } from '@tanstack/react-query';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { canWrite, useMe } from '../../lib/session';
import { useUrlFilters } from '../../lib/url-filters';

const entityLabels: Record<AuditEntityType, string> = {
  user: 'User',
  api_key: 'API key',
  routing_rule: 'Routing rule',
  escalation_policy: 'Escalation policy',
  schedule: 'Schedule',
  integration: 'Integration',
  settings: 'Settings',
  import: 'Import',
  maintenance_window: 'Maintenance window',
  outgoing_webhook: 'Outgoing webhook',
  schedule_override: 'Schedule override',
  schedule_unavailability: 'Schedule unavailability',
  calendar_feed: 'Calendar link',
  contact_method: 'Contact method',
  notification_rules: 'Notification rules',
  postmortem_template: 'Post-mortem template',
  status_page_component: 'Status page component',
};

/** Who changed which piece of configuration, and when (admins only: it names credentials and people). */
export function AuditLogPage() {
  const me = useMe();
  const admin = canWrite(me.data, 'admin');
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Audit log</h1>
          <p className="subtle small">
            Every change to users, API keys, routing, escalation, schedules, integrations, maintenance
            windows, outgoing webhooks, settings and imports, newest first. Secrets show as [redacted].
          </p>
        </div>
      </div>
      {me.data && !admin ? <p className="alert-box alert-info">Only admins read the audit log.</p> : null}
      {admin ? <AuditTable /> : null}
    </>
  );
}

/** A `datetime-local` value (the browser's time zone) as the ISO instant the API takes. */
function toInstant(local: string): string | undefined {
  if (!local) return undefined;
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

function AuditTable() {
  const { filter, setFilter } = useUrlFilters();
  const query = {
    entity: filter('entity') || undefined,
    entity_id: filter('entity_id') || undefined,
    actor: filter('actor') || undefined,
    from: toInstant(filter('from')),
    to: toInstant(filter('to')),
    limit: '50',
  };
  const log = useInfiniteQuery({
    queryKey: ['audit-log', query],
    queryFn: ({ pageParam }) => api.auditLog({ ...query, cursor: pageParam ?? undefined }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
  });
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <>
      <div className="actions" style={{ flexWrap: 'wrap', marginBottom: '0.5rem' }}>
        <label className="inline">
          Entity
          <select value={filter('entity')} onChange={(e) => setFilter('entity', e.target.value)}>
            <option value="">All</option>
            {Object.entries(entityLabels).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          Entity id
          <input
            value={filter('entity_id')}
            onChange={(e) => setFilter('entity_id', e.target.value.trim())}
          />
        </label>
        <label className="inline">
          Actor id
          <input
            value={filter('actor')}
            placeholder="user or API key id, or system"
            onChange={(e) => setFilter('actor', e.target.value.trim())}
          />
        </label>
        <label className="inline">
          From
          <input
            type="datetime-local"
            value={filter('from')}
            onChange={(e) => setFilter('from', e.target.value)}
          />
        </label>
        <label className="inline">
          To
          <input
            type="datetime-local"
            value={filter('to')}
            onChange={(e) => setFilter('to', e.target.value)}
          />
        </label>
      </div>
      <ErrorMessage error={log.error} prefix="Could not load the audit log" />
      <div className="card table-wrap" style={{ padding: 0 }}>
        <table aria-label="Audit log">
          <thead>
            <tr>
              <th>When</th>
              <th>Actor</th>
              <th>Action</th>
              <th>Entity</th>
              <th>Change</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <AuditRow key={entry.id} entry={entry} onActor={(actor) => setFilter('actor', actor)} />
            ))}
          </tbody>
        </table>
        {log.isPending ? <p className="empty">Loading…</p> : null}
        {log.data && entries.length === 0 ? <p className="empty">No changes match these filters.</p> : null}
      </div>
      {log.hasNextPage ? (
        <p className="actions">
          <button type="button" disabled={log.isFetchingNextPage} onClick={() => log.fetchNextPage()}>
            {log.isFetchingNextPage ? 'Loading…' : 'Older changes'}
          </button>
        </p>
      ) : null}
    </>
  );
}

function AuditRow({ entry, onActor }: { entry: AuditEntry; onActor: (actor: string) => void }) {
  const actorFilter = entry.actor.type === 'system' ? 'system' : (entry.actor.id ?? '');
  const kind = entry.actor.type === 'api_key' ? 'API key ' : '';
  return (
    <tr>
      <td>{formatDateTime(entry.at)}</td>
      <td>
        <button
          type="button"
          className="link"
          title="Only this actor's changes"
          onClick={() => onActor(actorFilter)}
        >
          {kind}
          {entry.actor.name ?? entry.actor.type}
        </button>
      </td>
      <td>{entry.action}</td>
      <td>
        {entityLabels[entry.entity_type as AuditEntityType] ?? entry.entity_type}
        {entry.entity_id ? <div className="small subtle">{entry.entity_id}</div> : null}
      </td>
      <td>
        <details>
          <summary>Before and after</summary>
          <div className="grid-2">
            <pre className="small">{JSON.stringify(entry.before, null, 2)}</pre>
            <pre className="small">{JSON.stringify(entry.after, null, 2)}</pre>
          </div>
          {entry.request_id ? <div className="small subtle">Request {entry.request_id}</div> : null}
        </details>
      </td>
    </tr>
  );
}
