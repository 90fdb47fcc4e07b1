import type { AlertSeverity } from '@firebreak/schema';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { alertSeverities } from '../../lib/labels';
import { parseLabels } from './rule-form';

/** "Test against a sample alert": which saved rule would take it (`POST /api/v1/routing-rules/preview`). */
export function RulePreview() {
  const [source, setSource] = useState('');
  const [severity, setSeverity] = useState<AlertSeverity>('critical');
  const [labels, setLabels] = useState('');
  const preview = useMutation({
    mutationFn: () =>
      api.previewRouting({ source: source.trim() || null, severity, labels: parseLabels(labels) }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    preview.mutate();
  };
  return (
    <form className="card form" onSubmit={submit} aria-label="Test against a sample alert">
      <h2>Test against a sample alert</h2>
      <div className="form-row">
        <label>
          Source
          <input
            value={source}
            onChange={(e) => setSource(e.target.value)}
            placeholder="e.g. metrics-alertmanager"
          />
        </label>
        <label>
          Severity
          <select value={severity} onChange={(e) => setSeverity(e.target.value as AlertSeverity)}>
            {alertSeverities.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label>
        Labels <span className="hint">one key=value per line</span>
        <textarea className="mono" rows={3} value={labels} onChange={(e) => setLabels(e.target.value)} />
      </label>
      <div className="actions">
        <button type="submit" disabled={preview.isPending}>
          Test
        </button>
      </div>
      <ErrorMessage error={preview.error} prefix="Preview failed" />
      {preview.data ? (
        <div className="alert-box alert-info" role="status" data-testid="preview-result">
          {preview.data.rule ? (
            <>
              Taken by <strong>{preview.data.rule.name}</strong> (priority {preview.data.rule.priority}):{' '}
            </>
          ) : null}
          {preview.data.outcome}
        </div>
      ) : null}
    </form>
  );
}
