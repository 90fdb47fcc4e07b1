import type { AlertSeverity, EscalationPolicy, IncidentSeverity, RoutingRule } from '@firebreak/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { useFocusOnMount } from '../../lib/focus';
import { alertSeverities, severities, severityLabel } from '../../lib/labels';
import { emptyRuleForm, formOfRule, type RuleForm, type RuleMode, ruleInputOf } from './rule-form';

interface Props {
  rule: RoutingRule | null;
  nextPriority: number;
  policies: EscalationPolicy[];
  onClose: () => void;
}

export function RuleEditor({ rule, nextPriority, policies, onClose }: Props) {
  const [form, setForm] = useState<RuleForm>(rule ? formOfRule(rule) : emptyRuleForm(nextPriority));
  const set = <K extends keyof RuleForm>(key: K, value: RuleForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const nameField = useRef<HTMLInputElement>(null);
  useFocusOnMount(nameField);
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: () => (rule ? api.updateRule(rule.id, ruleInputOf(form)) : api.createRule(ruleInputOf(form))),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['routing-rules'] });
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const toggleSeverity = (severity: AlertSeverity, on: boolean) =>
    set('severities', on ? [...form.severities, severity] : form.severities.filter((s) => s !== severity));

  return (
    <form
      className="card form"
      onSubmit={submit}
      aria-label={rule ? `Edit rule ${rule.name}` : 'New rule'}
      style={{ marginBottom: '1rem' }}
    >
      <h2>{rule ? `Edit “${rule.name}”` : 'New rule'}</h2>
      <div className="form-row">
        <label>
          Name
          <input ref={nameField} required value={form.name} onChange={(e) => set('name', e.target.value)} />
        </label>
        <label>
          Priority <span className="hint">lower runs first</span>
          <input
            type="number"
            min={0}
            required
            value={form.priority}
            onChange={(e) => set('priority', e.target.value)}
          />
        </label>
        <label className="inline" style={{ alignSelf: 'end' }}>
          <input type="checkbox" checked={form.enabled} onChange={(e) => set('enabled', e.target.checked)} />
          Enabled
        </label>
      </div>
      <fieldset className="form">
        <legend>Match alerts where (all given must match; none = every alert)</legend>
        <label>
          Source <span className="hint">comma-separated, e.g. metrics-alertmanager, cloud-monitor</span>
          <input value={form.sources} onChange={(e) => set('sources', e.target.value)} />
        </label>
        <fieldset className="actions plain-fieldset">
          <legend className="small">Severity</legend>
          {alertSeverities.map((severity) => (
            <label key={severity} className="inline">
              <input
                type="checkbox"
                checked={form.severities.includes(severity)}
                onChange={(e) => toggleSeverity(severity, e.target.checked)}
              />
              {severity}
            </label>
          ))}
        </fieldset>
        <label>
          Labels <span className="hint">one key=value per line; a key alone (or =*) means “present”</span>
          <textarea
            value={form.labels}
            onChange={(e) => set('labels', e.target.value)}
            className="mono"
            rows={3}
          />
        </label>
      </fieldset>
      <fieldset className="form">
        <legend>Then</legend>
        <div role="radiogroup" aria-label="Action" className="actions">
          {(
            [
              ['create_incident', 'Open an incident'],
              ['suppress', 'Suppress'],
              ['store', 'Store only'],
            ] as [RuleMode, string][]
          ).map(([mode, label]) => (
            <label key={mode} className="inline">
              <input
                type="radio"
                name="mode"
                checked={form.mode === mode}
                onChange={() => set('mode', mode)}
              />
              {label}
            </label>
          ))}
        </div>
        {form.mode === 'create_incident' ? (
          <div className="form-row">
            <label>
              Incident severity
              <select
                value={form.incidentSeverity}
                onChange={(e) => set('incidentSeverity', e.target.value as IncidentSeverity | '')}
              >
                <option value="">From the alert</option>
                {severities.map((s) => (
                  <option key={s} value={s}>
                    {severityLabel[s]}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Escalation policy
              <select
                value={form.escalationPolicyId}
                onChange={(e) => set('escalationPolicyId', e.target.value)}
              >
                <option value="">The default</option>
                {policies.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Group by labels <span className="hint">comma-separated</span>
              <input value={form.groupBy} onChange={(e) => set('groupBy', e.target.value)} />
            </label>
            <label>
              Group window (s)
              <input
                type="number"
                min={1}
                value={form.groupWindowSeconds}
                onChange={(e) => set('groupWindowSeconds', e.target.value)}
                placeholder="3600"
              />
            </label>
            <label className="inline" style={{ alignSelf: 'end' }}>
              <input
                type="checkbox"
                checked={form.splitSenderGroups}
                onChange={(e) => set('splitSenderGroups', e.target.checked)}
                aria-describedby="split-sender-groups-hint"
              />
              Split sender groups
            </label>
            <p id="split-sender-groups-hint" className="hint">
              Without group-by labels, the alerts of one Alertmanager or Grafana notification group open one
              incident; tick this for one incident per alert.
            </p>
          </div>
        ) : null}
      </fieldset>
      <ErrorMessage error={save.error} prefix="The rule was not saved" />
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save rule'}
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
