import type { Env } from '@firebreak/config';
import { ImportPagerDutyInput } from '@firebreak/schema';
import { importFromPagerDuty } from '@firebreak/services';
import type { CliCommand } from './cli';
import { renderImportReport } from './import-report';
import { runImportCommand } from './run-command';

/**
 * `firebreak-import pagerduty --token <t> [--url <u>] [--dry-run] [--json]` (docs/import-pagerduty.md):
 * the same service as `POST /api/v1/imports/pagerduty`, run against the database in `DATABASE_URL`. Exit
 * codes as for `oncall`: 0 done (a dry run included), 1 the import failed, 2 the command line or the
 * environment was wrong.
 */

const USAGE = `Usage: firebreak-import pagerduty --token <api-token> [--url <api-url>] [--dry-run] [--json]

Imports users, schedules, escalation policies and the Events API integrations of services (with their
integration keys) from PagerDuty into the database in DATABASE_URL, in one transaction, and says what to
do about every other integration.

  --token <token>  a PagerDuty REST API key; read-only is enough
                   (or set PAGERDUTY_API_TOKEN, which keeps it out of the shell history)
  --url <url>      the REST API host: https://api.pagerduty.com (default), https://api.eu.pagerduty.com for EU
  --dry-run        show what would be imported; write nothing
  --json           print the answer as JSON (as POST /api/v1/imports/pagerduty gives it)
`;

export function pagerdutyCommand(env: Env = process.env): CliCommand {
  return {
    name: 'pagerduty',
    summary: 'users, schedules, escalations and Events API integrations from PagerDuty',
    run: (args, io) =>
      runImportCommand(
        {
          source: 'pagerduty',
          usage: USAGE,
          credential: { flag: 'token', field: 'api_token', env: 'PAGERDUTY_API_TOKEN' },
          schema: ImportPagerDutyInput,
          progressSource: 'PagerDuty',
          noDatabaseMessage:
            'DATABASE_URL is not set. The CLI writes to the database directly; an\n' +
            'installation on the embedded database (`pnpm start` without DATABASE_URL) imports with\n' +
            'POST /api/v1/imports/pagerduty instead.\n',
          runImport: (ctx, input, settings) =>
            importFromPagerDuty(
              ctx,
              { url: input.url, apiToken: input.api_token, dryRun: input.dry_run },
              settings,
            ),
          render: (answer) => renderImportReport(answer, 'PagerDuty'),
        },
        args,
        io,
        env,
      ),
  };
}
