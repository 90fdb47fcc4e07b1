import type { AlertSeverity, IncidentSeverity, RoutingRule } from '@firebreak/schema';
import type { RuleInput } from '../../lib/api';

/**
 * A routing rule as the editor's fields hold it (plain strings), and the conversions both ways. Lists
 * are comma-separated and labels one `key=value` per line, so a rule reads the way it is written.
 * The server validates what comes out (docs/api.md, "Routing rules") and its message is shown as it is.
 */
export type RuleMode = 'create_incident' | 'suppress' | 'store';

export interface RuleForm {
  name: string;
  priority: string;
  enabled: boolean;
  sources: string;
  severities: AlertSeverity[];
  labels: string;
  mode: RuleMode;
  incidentSeverity: IncidentSeverity | '';
  escalationPolicyId: string;
  groupBy: string;
  groupWindowSeconds: string;
  /** One incident per alert even when the sender grouped them (an Alertmanager or Grafana group). */
  splitSenderGroups: boolean;
}

export const emptyRuleForm = (priority: number): RuleForm => ({
  name: '',
  priority: String(priority),
  enabled: true,
  sources: '',
  severities: [],
  labels: '',
  mode: 'create_incident',
  incidentSeverity: '',
  escalationPolicyId: '',
  groupBy: '',
  groupWindowSeconds: '',
  splitSenderGroups: false,
});

const list = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

export function formOfRule(rule: RoutingRule): RuleForm {
  const { match_criteria: match, actions } = rule;
  const sources =
    match.source === undefined ? [] : Array.isArray(match.source) ? match.source : [match.source];
  return {
    name: rule.name,
    priority: String(rule.priority),
    enabled: rule.enabled,
    sources: sources.join(', '),
    severities: match.severity ?? [],
    labels: Object.entries(match.labels ?? {})
      .map(([key, value]) => `${key}=${value}`)
      .join('\n'),
    mode: actions.suppress ? 'suppress' : actions.create_incident ? 'create_incident' : 'store',
    incidentSeverity: actions.severity ?? '',
    escalationPolicyId: actions.escalation_policy_id ?? '',
    groupBy: (actions.group_by ?? []).join(', '),
    groupWindowSeconds:
      actions.group_window_seconds === undefined ? '' : String(actions.group_window_seconds),
    splitSenderGroups: actions.split_sender_groups === true,
  };
}

/** `key=value` lines; a line without `=` means "the label is present" (`*`). */
export function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed) continue;
    const at = trimmed.indexOf('=');
    if (at < 0) labels[trimmed] = '*';
    else labels[trimmed.slice(0, at).trim()] = trimmed.slice(at + 1).trim();
  }
  return labels;
}

export function ruleInputOf(form: RuleForm): RuleInput {
  const sources = list(form.sources);
  const labels = parseLabels(form.labels);
  const match: RuleInput['match_criteria'] = {};
  if (sources.length === 1) match.source = sources[0];
  if (sources.length > 1) match.source = sources;
  if (form.severities.length > 0) match.severity = form.severities;
  if (Object.keys(labels).length > 0) match.labels = labels;

  const actions: RuleInput['actions'] = {};
  if (form.mode === 'suppress') actions.suppress = true;
  if (form.mode === 'create_incident') {
    actions.create_incident = true;
    if (form.incidentSeverity) actions.severity = form.incidentSeverity;
    if (form.escalationPolicyId) actions.escalation_policy_id = form.escalationPolicyId;
    const groupBy = list(form.groupBy);
    if (groupBy.length > 0) actions.group_by = groupBy;
    if (form.groupWindowSeconds.trim()) actions.group_window_seconds = Number(form.groupWindowSeconds);
    if (form.splitSenderGroups) actions.split_sender_groups = true;
  }
  return {
    name: form.name.trim(),
    priority: Number(form.priority),
    enabled: form.enabled,
    match_criteria: match,
    actions,
  };
}

/** One line per rule for the list: what it matches and what it does. */
export function describeMatch(rule: Pick<RoutingRule, 'match_criteria'>): string {
  const { source, severity, labels } = rule.match_criteria;
  const parts: string[] = [];
  if (source !== undefined) parts.push(`source ${Array.isArray(source) ? source.join(' or ') : source}`);
  if (severity) parts.push(`severity ${severity.join(' or ')}`);
  for (const [key, value] of Object.entries(labels ?? {}))
    parts.push(value === '*' ? `has ${key}` : `${key}=${value}`);
  return parts.length > 0 ? parts.join(', ') : 'every alert';
}

export function describeActions(rule: Pick<RoutingRule, 'actions'>, policyName?: string): string {
  const { actions } = rule;
  if (actions.suppress) return 'suppress';
  if (!actions.create_incident) return 'store only';
  const parts = [`open incident${actions.severity ? ` (${actions.severity})` : ''}`];
  if (policyName) parts.push(`escalate via ${policyName}`);
  if (actions.group_by) parts.push(`group by ${actions.group_by.join(', ')}`);
  else if (actions.split_sender_groups) parts.push('one per alert (sender groups split)');
  return parts.join(', ');
}
