// The API's fixed vocabularies (docs/api.md#incidents, #alerts, #roles), as the UI lists them.
// `satisfies` ties each list to the schema's types, so a value added there fails the type-check here
// instead of going missing.
import type { AlertSeverity, IncidentSeverity, IncidentStatus, Role } from '@firebreak/schema';

export const severities = [
  'critical',
  'high',
  'medium',
  'low',
] as const satisfies readonly IncidentSeverity[];
export const statuses = [
  'triggered',
  'acknowledged',
  'resolved',
] as const satisfies readonly IncidentStatus[];
export const alertSeverities = ['critical', 'warning', 'info'] as const satisfies readonly AlertSeverity[];
export const roles = ['admin', 'member', 'viewer'] as const satisfies readonly Role[];

export const statusLabel: Record<IncidentStatus, string> = {
  triggered: 'Triggered',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
};

export const severityLabel: Record<IncidentSeverity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};
