import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api, type Integration } from '../../lib/api';
import { formatDateTime, formatDuration, formatRelative } from '../../lib/format';
import { CopyButton } from './CopyButton';
import { HeartbeatBadge } from './HeartbeatBadge';
import { describeLabels, integrationTypeLabel } from './integration-form';
import { absoluteIntakeUrl, senderSnippet } from './sender-snippet';

interface Props {
  integration: Integration;
  admin: boolean;
  policyName: string | undefined;
  onDeleted: () => void;
}

const when = (iso: string | null) =>
  iso ? <span title={formatDateTime(iso)}>{formatRelative(iso)}</span> : 'never';

/** One integration: where its sender posts, what to paste there, and the admin's switches. */
export function IntegrationDetails({ integration, admin, policyName, onDeleted }: Props) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['integrations'] });
  const update = useMutation({
    mutationFn: (enabled: boolean) => api.updateIntegration(integration.id, { enabled }),
    onSuccess: refresh,
  });
  const rotate = useMutation({
    mutationFn: () => api.rotateIntegrationKey(integration.id),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => api.deleteIntegration(integration.id),
    onSuccess: async () => {
      await refresh();
      onDeleted();
    },
  });
  const origin = window.location.origin;
  const url = absoluteIntakeUrl(integration.intake_url, origin);
  const snippet = senderSnippet(integration, origin);
  const { heartbeat } = integration;
  const headingId = `integration-${integration.id}-heading`;

  return (
    <section className="card stack" aria-labelledby={headingId} data-testid="integration-details">
      <div>
        <h2 id={headingId}>
          {integration.name} <span className="subtle small">· {integrationTypeLabel[integration.type]}</span>
        </h2>
        <dl className="facts">
          <dt>State</dt>
          <dd>{integration.enabled ? 'Enabled' : 'Disabled — its URL answers 404'}</dd>
          <dt>Escalation policy</dt>
          <dd>{policyName ?? 'the default'}</dd>
          <dt>Labels</dt>
          <dd className="mono small">{describeLabels(integration.labels) || '—'}</dd>
          <dt>Last alert</dt>
          <dd>{when(integration.last_alert_at)}</dd>
          {heartbeat ? (
            <>
              <dt>Heartbeat</dt>
              <dd>
                <HeartbeatBadge heartbeat={heartbeat} /> every{' '}
                {formatDuration(integration.interval_seconds ?? 0)}, grace{' '}
                {formatDuration(integration.grace_seconds ?? 0)}, raises a {integration.severity} alert
              </dd>
              <dt>Last ping</dt>
              <dd>{when(heartbeat.last_ping_at)}</dd>
              <dt>Next due</dt>
              <dd>{heartbeat.next_due_at ? when(heartbeat.next_due_at) : 'after the first ping'}</dd>
            </>
          ) : null}
        </dl>
      </div>
      <div>
        <h3>Intake URL</h3>
        <div className="actions" style={{ flexWrap: 'nowrap' }}>
          <div className="secret" data-testid="intake-url" style={{ flex: 1 }}>
            {url}
          </div>
          {/* A masked URL is no use to copy. */}
          {admin ? <CopyButton text={url} label={`Copy the intake URL of ${integration.name}`} /> : null}
        </div>
        <p className="small subtle" style={{ marginBottom: 0 }}>
          {admin
            ? 'The key in the URL is the credential: keep it as secret as a password, and rotate it if it leaks.'
            : 'The key is masked: only admins see it whole.'}
        </p>
      </div>
      <div>
        <h3>Sender setup</h3>
        <p className="small subtle" style={{ marginTop: 0 }}>
          {snippet.intro}
        </p>
        {snippet.kind === 'none' ? null : (
          <>
            <pre data-testid="sender-snippet">{snippet.text}</pre>
            {admin ? (
              <CopyButton text={snippet.text} label={`Copy the sender setup of ${integration.name}`} />
            ) : null}
          </>
        )}
      </div>
      {admin ? (
        <div className="actions">
          <button
            type="button"
            onClick={() => update.mutate(!integration.enabled)}
            disabled={update.isPending}
          >
            {integration.enabled ? 'Disable' : 'Enable'}
          </button>
          <button
            type="button"
            disabled={rotate.isPending}
            onClick={() => {
              if (
                window.confirm(
                  `Rotate the key of "${integration.name}"? The current URL stops working at once; update the sender with the new one.`,
                )
              )
                rotate.mutate();
            }}
          >
            Rotate key
          </button>
          <button
            type="button"
            className="danger"
            disabled={remove.isPending}
            onClick={() => {
              if (window.confirm(`Delete the integration "${integration.name}"? Its alerts are kept.`))
                remove.mutate();
            }}
          >
            Delete
          </button>
        </div>
      ) : null}
      <ErrorMessage error={update.error ?? rotate.error ?? remove.error} prefix="The change was not made" />
      {rotate.isSuccess ? (
        <div role="status" className="alert-box alert-ok">
          Key rotated: the URL above is the new one.
        </div>
      ) : null}
    </section>
  );
}
