import type { Env } from '@firebreak/config';
import { ImportOnCallInput } from '@firebreak/schema';
import { importFromOnCall } from '@firebreak/services';
import type { CliCommand } from './cli';
import { renderOnCallReport } from './oncall-report';
import { runImportCommand } from './run-command';

/**
 * `firebreak-import oncall --url <u> --token <t> [--dry-run] [--json]` (docs/import-oncall.md): the same
 * service as `POST /api/v1/imports/oncall`, run against the database in `DATABASE_URL`. Exit codes: 0
 * done (a dry run included), 1 the import failed, 2 the command line or the environment was wrong.
 */

const USAGE = `Usage: firebreak-import oncall --url <oncall-api-url> --token <api-token> [--dry-run] [--json]

Imports users, schedules and escalation policies from Grafana OnCall into the database in
DATABASE_URL, in one transaction, and lists the webhook path for each OnCall integration.

  --url <url>      the "OnCall API URL" shown on OnCall → Settings
  --token <token>  an OnCall API token (or set ONCALL_API_TOKEN, which keeps it out of the shell history)
  --dry-run        show what would be imported; write nothing
  --json           print the answer as JSON (as POST /api/v1/imports/oncall gives it)
`;

export function oncallCommand(env: Env = process.env): CliCommand {
  return {
    name: 'oncall',
    summary: 'users, schedules and escalation policies from Grafana OnCall',
    run: (args, io) =>
      runImportCommand(
        {
          source: 'oncall',
          usage: USAGE,
          credential: { flag: 'token', field: 'api_token', env: 'ONCALL_API_TOKEN' },
          schema: ImportOnCallInput,
          noDatabaseMessage:
            'DATABASE_URL is not set. The CLI writes to the database directly; an\n' +
            'installation on the embedded database (`pnpm start` without DATABASE_URL) imports with\n' +
            'POST /api/v1/imports/oncall instead.\n',
          runImport: (ctx, input, settings) =>
            importFromOnCall(
              ctx,
              { url: input.url, apiToken: input.api_token, dryRun: input.dry_run },
              settings,
            ),
          render: renderOnCallReport,
        },
        args,
        io,
        env,
      ),
  };
}
