import type { IncidentSeverity } from '@firebreak/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ErrorMessage } from '../components/ErrorMessage';
import { api } from '../lib/api';
import { useFocusOnMount } from '../lib/focus';
import { severities, severityLabel } from '../lib/labels';

export function NewIncidentForm({ onClose }: { onClose: () => void }) {
  const [title, setTitle] = useState('');
  const [severity, setSeverity] = useState<IncidentSeverity>('high');
  const [description, setDescription] = useState('');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const titleField = useRef<HTMLInputElement>(null);
  useFocusOnMount(titleField);
  const create = useMutation({
    mutationFn: () => api.createIncident({ title, severity, ...(description ? { description } : {}) }),
    onSuccess: async (incident) => {
      await queryClient.invalidateQueries({ queryKey: ['incidents'] });
      await queryClient.invalidateQueries({ queryKey: ['incident-counts'] });
      onClose();
      navigate(`/incidents/${incident.number}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form className="card form" onSubmit={submit} aria-label="New incident" style={{ marginBottom: '1rem' }}>
      <h2>New incident</h2>
      <label>
        Title
        <input
          ref={titleField}
          required
          maxLength={500}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
        />
      </label>
      <label>
        Severity
        <select value={severity} onChange={(e) => setSeverity(e.target.value as IncidentSeverity)}>
          {severities.map((s) => (
            <option key={s} value={s}>
              {severityLabel[s]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Description <span className="hint">(optional)</span>
        <textarea value={description} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <ErrorMessage error={create.error} prefix="Could not create the incident" />
      <div className="actions">
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create incident'}
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
