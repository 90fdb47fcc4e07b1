import { api } from '../lib/api';
import { ImportForm } from './ImportForm';

const US_API = 'https://api.opsgenie.com';

/**
 * Opsgenie import (docs/import-opsgenie.md). As for OnCall, the real import is offered only after a dry run
 * of the same host and key, so an admin always sees what will be created, skipped and approximated first.
 */
export function OpsgenieImportPanel() {
  return (
    <ImportForm
      label="Opsgenie import"
      intro={
        <>
          Users, schedules, escalations, and API integrations with their keys (senders then change only the
          host). Start with a dry run: it writes nothing.
        </>
      }
      initialUrl={US_API}
      urlLabel={
        <>
          Opsgenie API URL <span className="hint">https://api.eu.opsgenie.com for an EU account</span>
        </>
      }
      urlPlaceholder={US_API}
      secretLabel={
        <>
          API key <span className="hint">Read and Configuration access; used once, never stored</span>
        </>
      }
      secretNoun="key"
      runImport={({ url, secret, dryRun }) => api.importOpsgenie({ url, api_key: secret, dry_run: dryRun })}
    />
  );
}
