import type { Incident, IncidentSeverity } from '@firebreak/schema';
import { useEffect, useRef } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { severities, severityLabel } from '../../lib/labels';
import { canWrite, useMe } from '../../lib/session';
import { CommanderControl } from './CommanderControl';
import { EscalateButton } from './EscalateButton';
import { useIncidentChange } from './use-incident-change';

/** Acknowledge, Resolve, severity and commander: the incident actions of a member (docs/api.md#roles). */
export function IncidentActions({ incident }: { incident: Incident }) {
  const me = useMe();
  const change = useIncidentChange(incident);
  const resolveButton = useRef<HTMLButtonElement>(null);
  const closedNotice = useRef<HTMLParagraphElement>(null);
  // Acknowledge and Resolve remove the button that was pressed. When this operator pressed it, focus
  // moves to what comes next (Resolve, then the closed notice) once the change is saved and shown,
  // instead of falling to the top of the page; a change made by someone else never moves it.
  const pressedAt = useRef<Incident['status'] | null>(null);
  const press = (status: 'acknowledged' | 'resolved') => {
    pressedAt.current = incident.status;
    change.mutate({ status });
  };
  useEffect(() => {
    if (pressedAt.current === null || change.isPending) return;
    const moved = pressedAt.current !== incident.status;
    pressedAt.current = null;
    if (moved) (incident.status === 'resolved' ? closedNotice : resolveButton).current?.focus();
  }, [incident.status, change.isPending]);
  if (!canWrite(me.data, 'member')) {
    return <p className="subtle small">You have read-only access ({me.data?.role}).</p>;
  }
  if (incident.status === 'resolved') {
    // The API seals a resolved incident's timeline (409 for notes, severity and commander):
    // offer nothing that would be refused.
    return (
      <section className="card" aria-label="Actions">
        <p ref={closedNotice} tabIndex={-1} className="subtle" style={{ margin: 0 }}>
          This incident is resolved; its timeline is closed for changes.
        </p>
      </section>
    );
  }
  return (
    <section className="card stack" aria-label="Actions">
      <div className="actions">
        {incident.status === 'triggered' ? (
          <button
            type="button"
            className="primary"
            disabled={change.isPending}
            onClick={() => press('acknowledged')}
          >
            Acknowledge
          </button>
        ) : null}
        <button
          ref={resolveButton}
          type="button"
          disabled={change.isPending}
          onClick={() => press('resolved')}
        >
          Resolve
        </button>
        <EscalateButton incident={incident} />
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
