import { parseArgs } from 'node:util';
import { type Config, ConfigError, type Env, loadConfig } from '@firebreak/config';
import { createSql, isDatabaseUnavailable, migrate } from '@firebreak/db';
import { createLogger } from '@firebreak/logger';
import { AppError, ImportOpsgenieInput } from '@firebreak/schema';
import { importFromOpsgenie } from '@firebreak/services';
import type { CliCommand, CliIo } from './cli';
import { renderImportReport } from './import-report';
import { createProgressLine } from './progress';

/**
 * `firebreak-import opsgenie --api-key <k> [--url <u>] [--dry-run] [--json]` (docs/import-opsgenie.md): the
 * same service as `POST /api/v1/imports/opsgenie`, run against the database in `DATABASE_URL`. Exit codes
 * as for `oncall`: 0 done (a dry run included), 1 the import failed, 2 the command line or the environment
 * was wrong.
 */

const NAME = 'firebreak-import opsgenie';
const USAGE = `Usage: firebreak-import opsgenie --api-key <key> [--url <api-url>] [--dry-run] [--json]

Imports users, schedules, escalation policies and API integrations (with their keys) from Opsgenie
into the database in DATABASE_URL, in one transaction, and says where to point every other integration.

  --api-key <key>  an Opsgenie API key with Read and Configuration access
                   (or set OPSGENIE_API_KEY, which keeps it out of the shell history)
  --url <url>      the API host: https://api.opsgenie.com (default), https://api.eu.opsgenie.com for EU
  --dry-run        show what would be imported; write nothing
  --json           print the answer as JSON (as POST /api/v1/imports/opsgenie gives it)
`;

const flagOf: Record<string, string> = { url: '--url', api_key: '--api-key', dry_run: '--dry-run' };

export function opsgenieCommand(env: Env = process.env): CliCommand {
  return {
    name: 'opsgenie',
    summary: 'users, schedules, escalations and API integrations from Opsgenie',
    run: (args, io) => runOpsgenie(args, io, env),
  };
}

type Exit = { exit: number };

async function runOpsgenie(args: string[], io: CliIo, env: Env): Promise<number> {
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
  const progress = io.errIsTerminal && !options.json ? createProgressLine(io.err, 'Opsgenie') : undefined;
  try {
    // Like every Firebreak process at start; a dry run changes nothing, not even the schema.
    if (!options.input.dry_run) await migrate(sql);
    const answer = await importFromOpsgenie(
      { sql, logger, now: () => new Date() },
      { url: options.input.url, apiKey: options.input.api_key, dryRun: options.input.dry_run },
      progress ? { onProgress: (p) => progress.report(p) } : {},
    );
    progress?.finish();
    io.out(options.json ? `${JSON.stringify(answer, null, 2)}\n` : renderImportReport(answer, 'Opsgenie'));
    return 0;
  } catch (error) {
    progress?.finish();
    const failure = describeFailure(error);
    io.err(`${NAME}: ${failure.message}\n`);
    if (options.json) io.out(`${JSON.stringify({ error: failure }, null, 2)}\n`);
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
): { input: ImportOpsgenieInput; json: boolean } | Exit {
  const usageError = (message: string) => {
    io.err(`${NAME}: ${message}\n\n${USAGE}`);
    return { exit: 2 };
  };
  let values: { url?: string; 'api-key'?: string; 'dry-run'?: boolean; json?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        url: { type: 'string' },
        'api-key': { type: 'string' },
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
  const input = ImportOpsgenieInput.safeParse({
    url: values.url,
    api_key: values['api-key'] ?? env.OPSGENIE_API_KEY,
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
    io.err(`${NAME}: invalid configuration\n${error.problems.map((p) => `  ${p}\n`).join('')}`);
    return { exit: 2 };
  }
  if (!config.databaseUrl) {
    io.err(
      `${NAME}: DATABASE_URL is not set. The CLI writes to the database directly; an installation on\n` +
        'the embedded database (`pnpm start` without DATABASE_URL) imports with\n' +
        'POST /api/v1/imports/opsgenie instead.\n',
    );
    return { exit: 2 };
  }
  return { url: config.databaseUrl, logLevel: env.LOG_LEVEL ? config.logLevel : 'warn' };
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
