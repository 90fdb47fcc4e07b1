import type { Incident, IncidentSeverity } from '@firebreak/schema';
import { ErrorMessage } from '../../components/ErrorMessage';
import { severities, severityLabel } from '../../lib/labels';
import { canWrite, useMe } from '../../lib/session';
import { CommanderControl } from './CommanderControl';
import { useIncidentChange } from './use-incident-change';

/** Acknowledge, Resolve, severity and commander: the spec's incident actions (member role). */
export function IncidentActions({ incident }: { incident: Incident }) {
  const me = useMe();
  const change = useIncidentChange(incident);
  if (!canWrite(me.data, 'member')) {
    return <p className="subtle small">You have read-only access ({me.data?.role}).</p>;
  }
  const open = incident.status !== 'resolved';
  return (
    <section className="card stack" aria-label="Actions">
      <div className="actions">
        {incident.status === 'triggered' ? (
          <button
            type="button"
            className="primary"
            disabled={change.isPending}
            onClick={() => change.mutate({ status: 'acknowledged' })}
          >
            Acknowledge
          </button>
        ) : null}
        {open ? (
          <button
            type="button"
            disabled={change.isPending}
            onClick={() => change.mutate({ status: 'resolved' })}
          >
            Resolve
          </button>
        ) : (
          <span className="subtle">Resolved incidents are closed for changes of status.</span>
        )}
        <label className="inline">
          Severity
          <select
            value={incident.severity}
            disabled={change.isPending}
            onChange={(e) => change.mutate({ severity: e.target.value as IncidentSeverity })}
            style={{ width: 'auto' }}
          >
            {severities.map((s) => (
              <option key={s} value={s}>
                {severityLabel[s]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorMessage error={change.error} prefix="The change was not saved" />
      <CommanderControl incident={incident} />
    </section>
  );
}
