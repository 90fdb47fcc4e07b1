import { api } from '../lib/api';
import { ImportForm } from './ImportForm';

/**
 * Grafana OnCall import (docs/import-oncall.md). The real import is offered only after a dry run of the same
 * URL and token, so an admin always sees what will be created, skipped and approximated first.
 */
export function OnCallImportPanel() {
  return (
    <ImportForm
      label="OnCall import"
      intro="Users, schedules and escalation policies. Start with a dry run: it writes nothing."
      urlLabel={
        <>
          OnCall API URL <span className="hint">from OnCall → Settings</span>
        </>
      }
      urlPlaceholder="https://oncall.example.com/oncall"
      secretLabel={
        <>
          API token <span className="hint">used once, never stored</span>
        </>
      }
      secretNoun="token"
      runImport={({ url, secret, dryRun }) => api.importOnCall({ url, api_token: secret, dry_run: dryRun })}
    />
  );
}
