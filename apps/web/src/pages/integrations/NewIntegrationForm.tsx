import type { AlertSeverity, EscalationPolicy } from '@firebreak/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api, type Integration, type IntegrationType } from '../../lib/api';
import { useFocusOnMount } from '../../lib/focus';
import { alertSeverities } from '../../lib/labels';
import {
  emptyIntegrationForm,
  type IntegrationForm,
  integrationInputOf,
  integrationTypeLabel,
  integrationTypes,
} from './integration-form';

interface Props {
  policies: EscalationPolicy[];
  onCreated: (integration: Integration) => void;
  onClose: () => void;
}

export function NewIntegrationForm({ policies, onCreated, onClose }: Props) {
  const [form, setForm] = useState<IntegrationForm>(emptyIntegrationForm);
  const [formError, setFormError] = useState<string | null>(null);
  const set = <K extends keyof IntegrationForm>(key: K, value: IntegrationForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const nameField = useRef<HTMLInputElement>(null);
  useFocusOnMount(nameField);
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: api.createIntegration,
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: ['integrations'] });
      onCreated(created);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const made = integrationInputOf(form);
    if ('error' in made) {
      setFormError(made.error);
      return;
    }
    setFormError(null);
    create.mutate(made.input);
  };
  const heartbeat = form.type === 'heartbeat';

  return (
    <form
      className="card form"
      onSubmit={submit}
      aria-label="New integration"
      style={{ marginBottom: '1rem' }}
    >
      <h2>New integration</h2>
      <div className="form-row">
        <label>
          Name
          <input ref={nameField} required value={form.name} onChange={(e) => set('name', e.target.value)} />
        </label>
        <label>
          Type <span className="hint">fixed once created</span>
          <select value={form.type} onChange={(e) => set('type', e.target.value as IntegrationType)}>
            {integrationTypes.map((type) => (
              <option key={type} value={type}>
                {integrationTypeLabel[type]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Escalation policy <span className="hint">if the routing rule sets none</span>
          <select value={form.escalationPolicyId} onChange={(e) => set('escalationPolicyId', e.target.value)}>
            <option value="">The default</option>
            {policies.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label>
        Labels <span className="hint">one key=value per line; added to every alert it receives</span>
        <textarea
          className="mono"
          rows={2}
          value={form.labels}
          onChange={(e) => set('labels', e.target.value)}
        />
      </label>
      {heartbeat ? (
        <fieldset className="form">
          <legend>Heartbeat: an alert is raised when no ping arrives within interval + grace</legend>
          <div className="form-row">
            <label>
              Interval (s) <span className="hint">at least 30</span>
              <input
                type="number"
                min={30}
                required
                value={form.intervalSeconds}
                onChange={(e) => set('intervalSeconds', e.target.value)}
              />
            </label>
            <label>
              Grace (s)
              <input
                type="number"
                min={0}
                value={form.graceSeconds}
                onChange={(e) => set('graceSeconds', e.target.value)}
                placeholder="60"
              />
            </label>
            <label>
              Alert severity
              <select
                value={form.severity}
                onChange={(e) => set('severity', e.target.value as AlertSeverity)}
              >
                {alertSeverities.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </fieldset>
      ) : null}
      <ErrorMessage error={formError ?? create.error} prefix="The integration was not created" />
      <div className="actions">
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create integration'}
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
