import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api, type Integration } from '../../lib/api';
import { useFocusOnMount } from '../../lib/focus';
import { emptyMaintenanceForm, type MaintenanceForm, maintenanceInputOf } from './maintenance-form';

export function NewMaintenanceForm({
  integrations,
  onClose,
}: {
  integrations: Integration[];
  onClose: () => void;
}) {
  const [form, setForm] = useState<MaintenanceForm>(() => emptyMaintenanceForm(new Date()));
  const [formError, setFormError] = useState<string | null>(null);
  const set = <K extends keyof MaintenanceForm>(key: K, value: MaintenanceForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const nameField = useRef<HTMLInputElement>(null);
  useFocusOnMount(nameField);
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: api.createMaintenanceWindow,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['maintenance-windows'] });
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const made = maintenanceInputOf(form);
    if ('error' in made) {
      setFormError(made.error);
      return;
    }
    setFormError(null);
    create.mutate(made.input);
  };
  const toggleIntegration = (id: string, on: boolean) =>
    set('integrationIds', on ? [...form.integrationIds, id] : form.integrationIds.filter((i) => i !== id));

  return (
    <form
      className="card form"
      onSubmit={submit}
      aria-label="New maintenance window"
      style={{ marginBottom: '1rem' }}
    >
      <h2>New maintenance window</h2>
      <div className="form-row">
        <label>
          Name
          <input ref={nameField} required value={form.name} onChange={(e) => set('name', e.target.value)} />
        </label>
        <label>
          Starts <span className="hint">your time zone</span>
          <input
            type="datetime-local"
            required
            value={form.startsAt}
            onChange={(e) => set('startsAt', e.target.value)}
          />
        </label>
        <label>
          Ends
          <input
            type="datetime-local"
            required
            value={form.endsAt}
            onChange={(e) => set('endsAt', e.target.value)}
          />
        </label>
      </div>
      <fieldset className="form">
        <legend>Hold back alerts where (all given must match; none = every alert)</legend>
        {integrations.length > 0 ? (
          <fieldset className="actions plain-fieldset">
            <legend className="small">Integration (any of)</legend>
            {integrations.map((integration) => (
              <label key={integration.id} className="inline">
                <input
                  type="checkbox"
                  checked={form.integrationIds.includes(integration.id)}
                  onChange={(e) => toggleIntegration(integration.id, e.target.checked)}
                />
                {integration.name}
              </label>
            ))}
          </fieldset>
        ) : null}
        <label>
          Labels <span className="hint">one key=value per line; a key alone (or =*) means “present”</span>
          <textarea
            className="mono"
            rows={2}
            value={form.labels}
            onChange={(e) => set('labels', e.target.value)}
          />
        </label>
      </fieldset>
      <ErrorMessage error={formError ?? create.error} prefix="The window was not scheduled" />
      <div className="actions">
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? 'Scheduling…' : 'Schedule window'}
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
