import { api } from '../lib/api';
import { ImportForm } from './ImportForm';

/**
 * PagerDuty import (docs/import-pagerduty.md). As for OnCall, the real import is offered only after a dry
 * run of the same URL and token, so an admin sees what will be created, skipped and approximated first.
 */
export function PagerDutyImportPanel() {
  return (
    <ImportForm
      label="PagerDuty import"
      intro={
        <>
          Users, schedules, escalation policies, and the Events API integrations of your services, kept with
          their integration keys so senders only change the host. Start with a dry run: it writes nothing.
        </>
      }
      initialUrl="https://api.pagerduty.com"
      urlLabel={
        <>
          REST API URL <span className="hint">api.pagerduty.com, or api.eu.pagerduty.com</span>
        </>
      }
      secretLabel={
        <>
          API token{' '}
          <span className="hint">a REST API key (read-only is enough); used once, never stored</span>
        </>
      }
      secretNoun="token"
      runImport={({ url, secret, dryRun }) =>
        api.importPagerDuty({ url, api_token: secret, dry_run: dryRun })
      }
      sourceName="PagerDuty"
    />
  );
}
