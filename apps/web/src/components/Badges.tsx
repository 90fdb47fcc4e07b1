import type { IncidentSeverity, IncidentStatus, IncidentStorm } from '@firebreak/schema';
import { severityLabel, statusLabel } from '../lib/labels';

// Colour is never the only signal: every badge says its value in words.
export function SeverityBadge({ severity }: { severity: IncidentSeverity }) {
  return <span className={`badge sev-${severity}`}>{severityLabel[severity]}</span>;
}

export function StatusBadge({ status }: { status: IncidentStatus }) {
  return <span className={`badge st-${status}`}>{statusLabel[status]}</span>;
}

/** A storm incident (docs/api.md#storm-mode): how many alerts it took in, and whether it still does. */
export function StormBadge({ storm }: { storm: IncidentStorm }) {
  const alerts = `${storm.absorbed_alerts} alert${storm.absorbed_alerts === 1 ? '' : 's'}`;
  return storm.calmed_at === null ? (
    <span className="badge plain sev-high" data-testid="storm-badge">
      Storm · {alerts}
    </span>
  ) : (
    <span className="badge plain" data-testid="storm-badge">
      Storm (calmed) · {alerts}
    </span>
  );
}
