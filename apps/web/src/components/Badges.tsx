import type { IncidentSeverity, IncidentStatus } from '@firebreak/schema';
import { severityLabel, statusLabel } from '../lib/labels';

// Colour is never the only signal: every badge says its value in words.
export function SeverityBadge({ severity }: { severity: IncidentSeverity }) {
  return <span className={`badge sev-${severity}`}>{severityLabel[severity]}</span>;
}

export function StatusBadge({ status }: { status: IncidentStatus }) {
  return <span className={`badge st-${status}`}>{statusLabel[status]}</span>;
}
