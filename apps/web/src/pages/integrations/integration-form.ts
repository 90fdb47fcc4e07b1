import type { AlertSeverity } from '@firebreak/schema';
import type { IntegrationInput, IntegrationType } from '../../lib/api';

/**
 * The New integration form's fields (plain strings) and the request they make. Heartbeat fields are
 * sent only for a heartbeat: the API refuses them on any other type. The server validates the rest
 * (docs/api.md, "Integrations") and its message is shown as it is.
 */
export const integrationTypes = [
  'generic',
  'alertmanager',
  'grafana',
  'cloudwatch',
  'heartbeat',
  'pagerduty',
  'opsgenie',
] as const satisfies readonly IntegrationType[];

export const integrationTypeLabel: Record<IntegrationType, string> = {
  generic: 'Generic webhook',
  alertmanager: 'Alertmanager',
  grafana: 'Grafana',
  cloudwatch: 'CloudWatch (SNS)',
  heartbeat: 'Heartbeat',
  pagerduty: 'PagerDuty',
  opsgenie: 'Opsgenie',
};

export interface IntegrationForm {
  name: string;
  type: IntegrationType;
  labels: string;
  escalationPolicyId: string;
  intervalSeconds: string;
  graceSeconds: string;
  severity: AlertSeverity;
}

export const emptyIntegrationForm = (): IntegrationForm => ({
  name: '',
  type: 'generic',
  labels: '',
  escalationPolicyId: '',
  intervalSeconds: '300',
  graceSeconds: '60',
  severity: 'critical',
});

/**
 * `key=value` lines. Unlike a routing rule's match, a bare key means nothing here (these labels are
 * stamped on every alert), so such a line is reported rather than guessed at.
 */
export function parseLabelPairs(text: string): { labels: Record<string, string>; error?: string } {
  const labels: Record<string, string> = {};
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    const trimmed = line.trim();
    if (!trimmed) continue;
    const at = trimmed.indexOf('=');
    const key = at < 0 ? '' : trimmed.slice(0, at).trim();
    if (!key) return { labels, error: `Labels, line ${index + 1}: write key=value` };
    labels[key] = trimmed.slice(at + 1).trim();
  }
  return { labels };
}

export function integrationInputOf(form: IntegrationForm): { input: IntegrationInput } | { error: string } {
  const { labels, error } = parseLabelPairs(form.labels);
  if (error) return { error };
  const input: IntegrationInput = {
    name: form.name.trim(),
    type: form.type,
    enabled: true,
    labels,
    escalation_policy_id: form.escalationPolicyId || null,
  };
  if (form.type === 'heartbeat') {
    input.interval_seconds = Number(form.intervalSeconds);
    if (form.graceSeconds.trim()) input.grace_seconds = Number(form.graceSeconds);
    input.severity = form.severity;
  }
  return { input };
}

export function describeLabels(labels: Record<string, string>): string {
  return Object.entries(labels)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
}
