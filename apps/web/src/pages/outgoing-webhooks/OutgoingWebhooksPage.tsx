import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api, type OutgoingWebhook } from '../../lib/api';
import { useFocusOnClose } from '../../lib/focus';
import { canWrite, useMe } from '../../lib/session';
import { DeliveryLog } from './DeliveryLog';
import { WebhookEditor } from './WebhookEditor';

/** URLs that receive incident events (admins only: the URLs and their deliveries are configuration). */
export function OutgoingWebhooksPage() {
  const me = useMe();
  const admin = canWrite(me.data, 'admin');
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Outgoing webhooks</h1>
          <p className="subtle small">
            Each webhook receives a signed POST when an incident it subscribes to opens, changes or is
            resolved.
          </p>
        </div>
      </div>
      {me.data && !admin ? (
        <p className="alert-box alert-info">Only admins manage outgoing webhooks.</p>
      ) : null}
      {admin ? <WebhookList /> : null}
    </>
  );
}

function WebhookList() {
  const queryClient = useQueryClient();
  const webhooks = useQuery({ queryKey: ['outgoing-webhooks'], queryFn: api.outgoingWebhooks });
  const [editing, setEditing] = useState<OutgoingWebhook | 'new' | null>(null);
  const [logOf, setLogOf] = useState<string | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const openEditor = (target: OutgoingWebhook | 'new', from: HTMLElement) => {
    opener.current = from;
    setEditing(target);
  };
  useFocusOnClose(editing !== null, () => (opener.current?.isConnected ? opener.current : newButton.current));
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['outgoing-webhooks'] });
  const toggle = useMutation({
    mutationFn: (webhook: OutgoingWebhook) =>
      api.updateOutgoingWebhook(webhook.id, { enabled: !webhook.enabled }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (webhook: OutgoingWebhook) => api.deleteOutgoingWebhook(webhook.id),
    onSuccess: refresh,
  });
  const list = webhooks.data?.outgoing_webhooks ?? [];
  const logged = list.find((webhook) => webhook.id === logOf);

  return (
    <>
      {editing === null ? (
        <p className="actions">
          <button
            ref={newButton}
            type="button"
            className="primary"
            onClick={(e) => openEditor('new', e.currentTarget)}
          >
            New webhook
          </button>
        </p>
      ) : (
        <WebhookEditor
          key={editing === 'new' ? 'new' : editing.id}
          webhook={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      <ErrorMessage error={webhooks.error} prefix="Could not load outgoing webhooks" />
      <ErrorMessage error={toggle.error ?? remove.error} prefix="The webhook was not changed" />
      <div className="card table-wrap" style={{ padding: 0, marginBottom: '1rem' }}>
        <table aria-label="Outgoing webhooks">
          <thead>
            <tr>
              <th>Name</th>
              <th>URL</th>
              <th>Events</th>
              <th>Signed</th>
              <th>State</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.map((webhook) => (
              <tr key={webhook.id}>
                <td style={{ fontWeight: 600 }}>{webhook.name}</td>
                <td className="mono small" style={{ wordBreak: 'break-all' }}>
                  {webhook.url}
                </td>
                <td className="mono small">{webhook.events.join(', ')}</td>
                <td>{webhook.has_secret ? 'yes' : <span className="subtle">no</span>}</td>
                <td>{webhook.enabled ? 'Enabled' : <span className="subtle">Disabled</span>}</td>
                <td>
                  <div className="actions">
                    <button
                      type="button"
                      aria-label={`Edit ${webhook.name}`}
                      onClick={(e) => openEditor(webhook, e.currentTarget)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      aria-label={`${webhook.enabled ? 'Disable' : 'Enable'} ${webhook.name}`}
                      disabled={toggle.isPending}
                      onClick={() => toggle.mutate(webhook)}
                    >
                      {webhook.enabled ? 'Disable' : 'Enable'}
                    </button>
                    <button
                      type="button"
                      aria-pressed={webhook.id === logOf}
                      aria-label={`Deliveries of ${webhook.name}`}
                      onClick={() => setLogOf(webhook.id === logOf ? null : webhook.id)}
                    >
                      Deliveries
                    </button>
                    <button
                      type="button"
                      className="danger"
                      aria-label={`Delete ${webhook.name}`}
                      disabled={remove.isPending}
                      onClick={() => {
                        if (
                          window.confirm(
                            `Delete the webhook "${webhook.name}"? Its pending deliveries are dropped.`,
                          )
                        )
                          remove.mutate(webhook);
                      }}
                    >
                      Delete
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {webhooks.data && list.length === 0 ? <p className="empty">No outgoing webhooks.</p> : null}
      </div>
      {logged ? <DeliveryLog key={logged.id} webhook={logged} /> : null}
    </>
  );
}
