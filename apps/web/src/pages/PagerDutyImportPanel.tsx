import type { ImportResult } from '@firebreak/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorMessage } from '../components/ErrorMessage';
import { api } from '../lib/api';
import { ImportResultView } from './ImportResultView';

const DEFAULT_URL = 'https://api.pagerduty.com';

/**
 * PagerDuty import (docs/import-pagerduty.md). As for OnCall, the real import is offered only after a dry
 * run of the same URL and token, so an admin sees what will be created, skipped and approximated first.
 */
export function PagerDutyImportPanel() {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState(DEFAULT_URL);
  const [token, setToken] = useState('');
  const [previewed, setPreviewed] = useState<{ url: string; token: string } | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const run = useMutation({
    mutationFn: (dryRun: boolean) => api.importPagerDuty({ url, api_token: token, dry_run: dryRun }),
    onSuccess: async (answer) => {
      setResult(answer);
      if (answer.dry_run) setPreviewed({ url, token });
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
  const ready = previewed?.url === url && previewed.token === token;
  return (
    <>
      <p className="subtle small">
        Users, schedules, escalation policies, and the Events API integrations of your services, kept with
        their integration keys so senders only change the host. Start with a dry run: it writes nothing.
      </p>
      <form className="card form" onSubmit={submit} aria-label="PagerDuty import">
        <div className="form-row">
          <label>
            REST API URL <span className="hint">api.pagerduty.com, or api.eu.pagerduty.com</span>
            <input type="url" required value={url} onChange={(e) => setUrl(e.target.value)} />
          </label>
          <label>
            API token{' '}
            <span className="hint">a REST API key (read-only is enough); used once, never stored</span>
            <input
              type="password"
              required
              value={token}
              onChange={(e) => setToken(e.target.value)}
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
            title={ready ? undefined : 'Run a dry run of this URL and token first'}
          >
            Import now
          </button>
        </div>
        <ErrorMessage error={run.error} prefix="The import did not run" />
      </form>
      {result ? <ImportResultView result={result} sourceName="PagerDuty" /> : null}
    </>
  );
}
