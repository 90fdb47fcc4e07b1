import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { type StatusComponent, statusPageApi } from '../../lib/api-status-page';
import { useFocusOnMount } from '../../lib/focus';
import {
  type ComponentForm,
  componentInputOf,
  componentStatusLabel,
  componentStatusOptions,
  emptyComponentForm,
  formOfComponent,
} from './component-form';

/** Creates a component, or edits one (`component`); its status may be set by hand or left automatic. */
export function ComponentEditor({
  component,
  onClose,
}: {
  component: StatusComponent | null;
  onClose: () => void;
}) {
  const [form, setForm] = useState<ComponentForm>(() =>
    component ? formOfComponent(component) : emptyComponentForm(),
  );
  const [formError, setFormError] = useState<string | null>(null);
  const set = <K extends keyof ComponentForm>(key: K, value: ComponentForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const nameField = useRef<HTMLInputElement>(null);
  useFocusOnMount(nameField);
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (input: Parameters<typeof statusPageApi.createComponent>[0]) =>
      component ? statusPageApi.updateComponent(component.id, input) : statusPageApi.createComponent(input),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['status-page'] });
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const made = componentInputOf(form);
    if ('error' in made) {
      setFormError(made.error);
      return;
    }
    setFormError(null);
    save.mutate(made.input);
  };
  const title = component ? `Edit component ${component.name}` : 'New component';

  return (
    <form className="card form sp-editor" onSubmit={submit} aria-label={title}>
      <h2>{component ? `Edit “${component.name}”` : 'New component'}</h2>
      <div className="form-row">
        <label>
          Name <span className="hint">shown on the public page</span>
          <input
            ref={nameField}
            required
            maxLength={100}
            value={form.name}
            onChange={(e) => set('name', e.target.value)}
          />
        </label>
        <label>
          Group <span className="hint">optional; components of a group are listed together</span>
          <input maxLength={100} value={form.group} onChange={(e) => set('group', e.target.value)} />
        </label>
        <label>
          Position <span className="hint">smallest first; empty: last</span>
          <input
            inputMode="numeric"
            value={form.position}
            onChange={(e) => set('position', e.target.value)}
          />
        </label>
      </div>
      <label>
        Follows incidents whose alerts carry{' '}
        <span className="hint">one label per line, as name=value; every one must match</span>
        <textarea
          className="mono"
          required
          rows={3}
          value={form.match}
          placeholder={'service=checkout\nenv=prod'}
          onChange={(e) => set('match', e.target.value)}
          spellCheck={false}
        />
      </label>
      <label>
        Status
        <select
          value={form.status}
          onChange={(e) => set('status', e.target.value as ComponentForm['status'])}
        >
          <option value="">Automatic, from open incidents</option>
          {componentStatusOptions.map((status) => (
            <option key={status} value={status}>
              Set by hand: {componentStatusLabel[status]}
            </option>
          ))}
        </select>
      </label>
      <ErrorMessage error={formError ?? save.error} prefix="The component was not saved" />
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save component'}
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
