import type { ImportResult } from '@firebreak/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { ErrorMessage } from '../components/ErrorMessage';
import { ImportResultView } from './ImportResultView';

/**
 * The form of every import panel: an API URL, a credential, and the dry-run-first flow. The real import
 * is offered only after a dry run of the same URL and credential, so an admin always sees what will be
 * created, skipped and approximated first; editing either field asks for a new dry run.
 */
export function ImportForm({
  label,
  intro,
  initialUrl = '',
  urlLabel,
  urlPlaceholder,
  secretLabel,
  secretNoun,
  runImport,
  sourceName,
}: {
  /** The form's accessible name, e.g. `OnCall import`. */
  label: string;
  intro: ReactNode;
  initialUrl?: string;
  urlLabel: ReactNode;
  urlPlaceholder?: string;
  secretLabel: ReactNode;
  /** What the credential is called in the hint on the import button: `token` or `key`. */
  secretNoun: string;
  runImport: (input: { url: string; secret: string; dryRun: boolean }) => Promise<ImportResult>;
  /** Passed on to the result, which names the source in its integrations section. */
  sourceName?: string;
}) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState(initialUrl);
  const [secret, setSecret] = useState('');
  const [previewed, setPreviewed] = useState<{ url: string; secret: string } | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const run = useMutation({
    mutationFn: (dryRun: boolean) => runImport({ url, secret, dryRun }),
    onSuccess: async (answer) => {
      setResult(answer);
      if (answer.dry_run) setPreviewed({ url, secret });
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
  const ready = previewed?.url === url && previewed.secret === secret;
  return (
    <>
      <p className="subtle small">{intro}</p>
      <form className="card form" onSubmit={submit} aria-label={label}>
        <div className="form-row">
          <label>
            {urlLabel}
            <input
              type="url"
              required
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder={urlPlaceholder}
            />
          </label>
          <label>
            {secretLabel}
            <input
              type="password"
              required
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
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
            title={ready ? undefined : `Run a dry run of this URL and ${secretNoun} first`}
          >
            Import now
          </button>
        </div>
        <ErrorMessage error={run.error} prefix="The import did not run" />
      </form>
      {result ? <ImportResultView result={result} sourceName={sourceName} /> : null}
    </>
  );
}
