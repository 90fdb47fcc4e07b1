import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { useFocusOnClose } from '../../lib/focus';
import { formatDateTime, formatRelative } from '../../lib/format';
import { canWrite, useMe } from '../../lib/session';
import { HeartbeatBadge } from './HeartbeatBadge';
import { IntegrationDetails } from './IntegrationDetails';
import { integrationTypeLabel } from './integration-form';
import { NewIntegrationForm } from './NewIntegrationForm';
import { OpenIntakeNotice } from './OpenIntakeNotice';

/** Each integration is a sender with its own keyed URL (docs/integrations/keyed-intake.md). */
export function IntegrationsPage() {
  const me = useMe();
  const admin = canWrite(me.data, 'admin');
  const integrations = useQuery({ queryKey: ['integrations'], queryFn: api.integrations });
  const policies = useQuery({ queryKey: ['escalation-policies'], queryFn: api.escalationPolicies });
  const settings = useQuery({ queryKey: ['settings'], queryFn: api.settings });
  const [creating, setCreating] = useState(false);
  const [shownId, setShownId] = useState<string | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);
  useFocusOnClose(creating, () => newButton.current);
  const list = integrations.data?.integrations ?? [];
  const shown = list.find((integration) => integration.id === shownId);
  const policyName = (id: string | null) =>
    id ? (policies.data?.escalation_policies.find((p) => p.id === id)?.name ?? id) : undefined;

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Integrations</h1>
          <p className="subtle small">
            Each sender posts to its own URL; the key in it says which integration an alert came through.
          </p>
        </div>
        {admin && !creating ? (
          <button ref={newButton} type="button" className="primary" onClick={() => setCreating(true)}>
            New integration
          </button>
        ) : null}
      </div>
      {settings.data ? <OpenIntakeNotice settings={settings.data} admin={admin} /> : null}
      {creating ? (
        <NewIntegrationForm
          policies={policies.data?.escalation_policies ?? []}
          onClose={() => setCreating(false)}
          onCreated={(created) => {
            setCreating(false);
            // The next thing to do with a new integration is to set up its sender.
            setShownId(created.id);
          }}
        />
      ) : null}
      <ErrorMessage error={integrations.error} prefix="Could not load integrations" />
      <div className="card table-wrap" style={{ padding: 0, marginBottom: '1rem' }}>
        <table aria-label="Integrations">
          <thead>
            <tr>
              <th>Name</th>
              <th>Type</th>
              <th>State</th>
              <th>Last alert</th>
              <th>Heartbeat</th>
              <th>Setup</th>
            </tr>
          </thead>
          <tbody>
            {list.map((integration) => (
              <tr key={integration.id} aria-current={integration.id === shownId ? 'true' : undefined}>
                <td style={{ fontWeight: 600 }}>{integration.name}</td>
                <td>{integrationTypeLabel[integration.type]}</td>
                <td>{integration.enabled ? 'Enabled' : <span className="subtle">Disabled</span>}</td>
                <td>
                  {integration.last_alert_at ? (
                    <span title={formatDateTime(integration.last_alert_at)}>
                      {formatRelative(integration.last_alert_at)}
                    </span>
                  ) : (
                    <span className="subtle">never</span>
                  )}
                </td>
                <td>{integration.heartbeat ? <HeartbeatBadge heartbeat={integration.heartbeat} /> : '—'}</td>
                <td>
                  <button
                    type="button"
                    aria-pressed={integration.id === shownId}
                    aria-label={`Show ${integration.name}`}
                    onClick={() => setShownId(integration.id === shownId ? null : integration.id)}
                  >
                    Show
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {integrations.data && list.length === 0 ? <p className="empty">No integrations yet.</p> : null}
      </div>
      {shown ? (
        <IntegrationDetails
          key={shown.id}
          integration={shown}
          admin={admin}
          policyName={policyName(shown.escalation_policy_id)}
          onDeleted={() => setShownId(null)}
        />
      ) : null}
    </>
  );
}
