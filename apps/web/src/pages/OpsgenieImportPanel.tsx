import type { ImportResult } from '@firebreak/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorMessage } from '../components/ErrorMessage';
import { api } from '../lib/api';
import { ImportResultView } from './ImportResultView';

const US_API = 'https://api.opsgenie.com';

/**
 * Opsgenie import (docs/import-opsgenie.md). As for OnCall, the real import is offered only after a dry run
 * of the same host and key, so an admin always sees what will be created, skipped and approximated first.
 */
export function OpsgenieImportPanel() {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState(US_API);
  const [apiKey, setApiKey] = useState('');
  const [previewed, setPreviewed] = useState<{ url: string; apiKey: string } | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const run = useMutation({
    mutationFn: (dryRun: boolean) => api.importOpsgenie({ url, api_key: apiKey, dry_run: dryRun }),
    onSuccess: async (answer) => {
      setResult(answer);
      if (answer.dry_run) setPreviewed({ url, apiKey });
      else {
        setPreviewed(null);
        await queryClient.invalidateQueries();
      }
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    run.mutate(true);
  };
  const ready = previewed?.url === url && previewed.apiKey === apiKey;
  return (
    <>
      <p className="subtle small">
        Users, schedules, escalations, and API integrations with their keys (senders then change only the
        host). Start with a dry run: it writes nothing.
      </p>
      <form className="card form" onSubmit={submit} aria-label="Opsgenie import">
        <div className="form-row">
          <label>
            Opsgenie API URL <span className="hint">https://api.eu.opsgenie.com for an EU account</span>
            <input
              type="url"
              required
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder={US_API}
            />
          </label>
          <label>
            API key <span className="hint">Read and Configuration access; used once, never stored</span>
            <input
              type="password"
              required
              value={apiKey}
              onChange={(e) => setApiKey(e.target.value)}
              autoComplete="off"
            />
          </label>
        </div>
        <div className="actions">
          <button type="submit" className={ready ? '' : 'primary'} disabled={run.isPending}>
            {run.isPending && run.variables ? 'Running…' : 'Preview (dry run)'}
          </button>
          <button
            type="button"
            className={ready ? 'primary' : ''}
            disabled={!ready || run.isPending}
            onClick={() => run.mutate(false)}
            title={ready ? undefined : 'Run a dry run of this URL and key first'}
          >
            Import now
          </button>
        </div>
        <ErrorMessage error={run.error} prefix="The import did not run" />
      </form>
      {result ? <ImportResultView result={result} /> : null}
    </>
  );
}
