import { parseArgs } from 'node:util';
import { type Config, ConfigError, type Env, loadConfig } from '@firebreak/config';
import { createSql, isDatabaseUnavailable, migrate } from '@firebreak/db';
import { createLogger } from '@firebreak/logger';
import { AppError, ImportOnCallInput } from '@firebreak/schema';
import { importFromOnCall } from '@firebreak/services';
import type { CliCommand, CliIo } from './cli';
import { renderOnCallReport } from './oncall-report';
import { createProgressLine } from './progress';

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

const flagOf: Record<string, string> = { url: '--url', api_token: '--token', dry_run: '--dry-run' };

export function oncallCommand(env: Env = process.env): CliCommand {
  return {
    name: 'oncall',
    summary: 'users, schedules and escalation policies from Grafana OnCall',
    run: (args, io) => runOnCall(args, io, env),
  };
}

/** A step that ended the command: its exit code (its message is already written). */
type Exit = { exit: number };

async function runOnCall(args: string[], io: CliIo, env: Env): Promise<number> {
  const options = parseOptions(args, io, env);
  if ('exit' in options) return options.exit;
  const database = databaseSettings(io, env);
  if ('exit' in database) return database.exit;
  // Log lines go to stderr, so that stdout stays the report (or JSON); quiet unless LOG_LEVEL asks.
  const logger = createLogger({
    level: database.logLevel,
    name: 'importer',
    destination: { write: (line: string) => io.err(line) },
  });
  const sql = createSql(database.url, { max: 2, applicationName: 'firebreak-import' });
  const progress = io.errIsTerminal && !options.json ? createProgressLine(io.err) : undefined;
  try {
    // Like every Firebreak process at start; a dry run changes nothing, not even the schema.
    if (!options.input.dry_run) await migrate(sql);
    const answer = await importFromOnCall(
      { sql, logger, now: () => new Date() },
      { url: options.input.url, apiToken: options.input.api_token, dryRun: options.input.dry_run },
      progress ? { onProgress: (p) => progress.report(p) } : {},
    );
    progress?.finish();
    io.out(options.json ? `${JSON.stringify(answer, null, 2)}\n` : renderOnCallReport(answer));
    return 0;
  } catch (error) {
    progress?.finish();
    reportFailure(error, io, options.json);
    return 1;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The command line, checked by the same schema as the API's request body. */
function parseOptions(
  args: string[],
  io: CliIo,
  env: Env,
): { input: ImportOnCallInput; json: boolean } | Exit {
  const usageError = (message: string) => {
    io.err(`firebreak-import oncall: ${message}\n\n${USAGE}`);
    return { exit: 2 };
  };
  let values: { url?: string; token?: string; 'dry-run'?: boolean; json?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        'dry-run': { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return usageError((error as Error).message);
  }
  if (values.help) {
    io.out(USAGE);
    return { exit: 0 };
  }
  const input = ImportOnCallInput.safeParse({
    url: values.url,
    api_token: values.token ?? env.ONCALL_API_TOKEN,
    dry_run: values['dry-run'] ?? false,
  });
  if (input.success) return { input: input.data, json: values.json ?? false };
  const problems = input.error.issues.map((issue) => {
    const flag = flagOf[String(issue.path[0])] ?? String(issue.path[0]);
    return issue.code === 'invalid_type' ? `${flag} is required` : `${flag} ${issue.message}`;
  });
  return usageError(problems.join('; '));
}

function databaseSettings(io: CliIo, env: Env): { url: string; logLevel: Config['logLevel'] } | Exit {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.err(
      `firebreak-import oncall: invalid configuration\n${error.problems.map((p) => `  ${p}\n`).join('')}`,
    );
    return { exit: 2 };
  }
  if (!config.databaseUrl) {
    io.err(
      'firebreak-import oncall: DATABASE_URL is not set. The CLI writes to the database directly; an\n' +
        'installation on the embedded database (`pnpm start` without DATABASE_URL) imports with\n' +
        'POST /api/v1/imports/oncall instead.\n',
    );
    return { exit: 2 };
  }
  return { url: config.databaseUrl, logLevel: env.LOG_LEVEL ? config.logLevel : 'warn' };
}

function reportFailure(error: unknown, io: CliIo, json: boolean): void {
  const failure = describeFailure(error);
  io.err(`firebreak-import oncall: ${failure.message}\n`);
  if (json) io.out(`${JSON.stringify({ error: failure }, null, 2)}\n`);
}

function describeFailure(error: unknown): Pick<AppError, 'code' | 'message' | 'details'> {
  if (error instanceof AppError) return { code: error.code, message: error.message, details: error.details };
  if (isDatabaseUnavailable(error)) {
    const cause = (error as { code?: string; message?: string }).code ?? (error as Error).message;
    return {
      code: 'database_unavailable',
      message: `cannot reach the database (${cause})`,
      details: undefined,
    };
  }
  return { code: 'internal', message: String((error as Error)?.message ?? error), details: undefined };
}
