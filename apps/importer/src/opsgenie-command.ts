import type { Env } from '@firebreak/config';
import { ImportOpsgenieInput } from '@firebreak/schema';
import { importFromOpsgenie } from '@firebreak/services';
import type { CliCommand } from './cli';
import { renderImportReport } from './import-report';
import { runImportCommand } from './run-command';

/**
 * `firebreak-import opsgenie --api-key <k> [--url <u>] [--dry-run] [--json]` (docs/import-opsgenie.md): the
 * same service as `POST /api/v1/imports/opsgenie`, run against the database in `DATABASE_URL`. Exit codes
 * as for `oncall`: 0 done (a dry run included), 1 the import failed, 2 the command line or the environment
 * was wrong.
 */

const USAGE = `Usage: firebreak-import opsgenie --api-key <key> [--url <api-url>] [--dry-run] [--json]

Imports users, schedules, escalation policies and API integrations (with their keys) from Opsgenie
into the database in DATABASE_URL, in one transaction, and says where to point every other integration.

  --api-key <key>  an Opsgenie API key with Read and Configuration access
                   (or set OPSGENIE_API_KEY, which keeps it out of the shell history)
  --url <url>      the API host: https://api.opsgenie.com (default), https://api.eu.opsgenie.com for EU
  --dry-run        show what would be imported; write nothing
  --json           print the answer as JSON (as POST /api/v1/imports/opsgenie gives it)
`;

export function opsgenieCommand(env: Env = process.env): CliCommand {
  return {
    name: 'opsgenie',
    summary: 'users, schedules, escalations and API integrations from Opsgenie',
    run: (args, io) =>
      runImportCommand(
        {
          source: 'opsgenie',
          usage: USAGE,
          credential: { flag: 'api-key', field: 'api_key', env: 'OPSGENIE_API_KEY' },
          schema: ImportOpsgenieInput,
          progressSource: 'Opsgenie',
          noDatabaseMessage:
            'DATABASE_URL is not set. The CLI writes to the database directly; an installation on\n' +
            'the embedded database (`pnpm start` without DATABASE_URL) imports with\n' +
            'POST /api/v1/imports/opsgenie instead.\n',
          runImport: (ctx, input, settings) =>
            importFromOpsgenie(
              ctx,
              { url: input.url, apiKey: input.api_key, dryRun: input.dry_run },
              settings,
            ),
          render: (answer) => renderImportReport(answer, 'Opsgenie'),
        },
        args,
        io,
        env,
      ),
  };
}
