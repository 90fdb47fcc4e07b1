import { parseArgs } from 'node:util';
import { type Config, ConfigError, type Env, loadConfig } from '@firebreak/config';
import { createSql, isDatabaseUnavailable, migrate } from '@firebreak/db';
import { createLogger } from '@firebreak/logger';
import { AppError } from '@firebreak/schema';
import type { ImportContext, OnCallProgress } from '@firebreak/services';
import type { CliIo } from './cli';
import { createProgressLine } from './progress';

/**
 * What every `firebreak-import <source>` command shares: the command line (`--url`, a credential flag,
 * `--dry-run`, `--json`, `--help`), checked by the same schema as the API's request body; the database
 * from `DATABASE_URL`; progress on a terminal; the report or JSON on stdout; and the exit codes: 0 done
 * (a dry run included), 1 the import failed, 2 the command line or the environment was wrong.
 */

/** The request body every import schema yields: the credential field is named by the source. */
export type ImportInput = { url?: string; dry_run: boolean } & Record<string, unknown>;

/** The part of a zod schema this module uses, so the importer needs no zod of its own. */
interface InputSchema<Input> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: Input }
    | { success: false; error: { issues: { path: PropertyKey[]; code: string; message: string }[] } };
}

export interface ImportCommandSpec<Input extends ImportInput, Answer> {
  /** The sub-command, e.g. `opsgenie`; messages start with `firebreak-import <source>:`. */
  source: string;
  usage: string;
  /** The flag that carries the credential (`token`, `api-key`), its body field and its variable. */
  credential: { flag: string; field: string; env: string };
  schema: InputSchema<Input>;
  /** Who may ask to wait, in the progress line; the progress line's own default when absent. */
  progressSource?: string;
  /** The path offered instead when DATABASE_URL is not set; the text keeps each command's line breaks. */
  noDatabaseMessage: string;
  runImport(
    ctx: ImportContext,
    input: Input,
    settings: { onProgress?: (progress: OnCallProgress) => void },
  ): Promise<Answer>;
  render(answer: Answer): string;
}

/** A step that ended the command: its exit code (its message is already written). */
type Exit = { exit: number };

export async function runImportCommand<Input extends ImportInput, Answer>(
  spec: ImportCommandSpec<Input, Answer>,
  args: string[],
  io: CliIo,
  env: Env,
): Promise<number> {
  const name = `firebreak-import ${spec.source}`;
  const options = parseOptions(spec, name, args, io, env);
  if ('exit' in options) return options.exit;
  const database = databaseSettings(spec, name, io, env);
  if ('exit' in database) return database.exit;
  // Log lines go to stderr, so that stdout stays the report (or JSON); quiet unless LOG_LEVEL asks.
  const logger = createLogger({
    level: database.logLevel,
    name: 'importer',
    destination: { write: (line: string) => io.err(line) },
  });
  const sql = createSql(database.url, { max: 2, applicationName: 'firebreak-import' });
  const progress =
    io.errIsTerminal && !options.json ? createProgressLine(io.err, spec.progressSource) : undefined;
  try {
    // Like every Firebreak process at start; a dry run changes nothing, not even the schema.
    if (!options.input.dry_run) await migrate(sql);
    const answer = await spec.runImport(
      { sql, logger, now: () => new Date() },
      options.input,
      progress ? { onProgress: (p) => progress.report(p) } : {},
    );
    progress?.finish();
    io.out(options.json ? `${JSON.stringify(answer, null, 2)}\n` : spec.render(answer));
    return 0;
  } catch (error) {
    progress?.finish();
    const failure = describeFailure(error);
    io.err(`${name}: ${failure.message}\n`);
    if (options.json) io.out(`${JSON.stringify({ error: failure }, null, 2)}\n`);
    return 1;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function parseOptions<Input extends ImportInput>(
  spec: ImportCommandSpec<Input, unknown>,
  name: string,
  args: string[],
  io: CliIo,
  env: Env,
): { input: Input; json: boolean } | Exit {
  const usageError = (message: string) => {
    io.err(`${name}: ${message}\n\n${spec.usage}`);
    return { exit: 2 };
  };
  const { flag, field } = spec.credential;
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        url: { type: 'string' },
        [flag]: { type: 'string' },
        'dry-run': { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return usageError((error as Error).message);
  }
  if (values.help) {
    io.out(spec.usage);
    return { exit: 0 };
  }
  const input = spec.schema.safeParse({
    url: values.url,
    [field]: values[flag] ?? env[spec.credential.env],
    dry_run: values['dry-run'] ?? false,
  });
  if (input.success) return { input: input.data, json: values.json === true };
  const flagOf: Record<string, string> = { url: '--url', [field]: `--${flag}`, dry_run: '--dry-run' };
  const problems = input.error.issues.map((issue) => {
    const flagName = flagOf[String(issue.path[0])] ?? String(issue.path[0]);
    return issue.code === 'invalid_type' ? `${flagName} is required` : `${flagName} ${issue.message}`;
  });
  return usageError(problems.join('; '));
}

function databaseSettings(
  spec: ImportCommandSpec<ImportInput, unknown>,
  name: string,
  io: CliIo,
  env: Env,
): { url: string; logLevel: Config['logLevel'] } | Exit {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.err(`${name}: invalid configuration\n${error.problems.map((p) => `  ${p}\n`).join('')}`);
    return { exit: 2 };
  }
  if (!config.databaseUrl) {
    io.err(`${name}: ${spec.noDatabaseMessage}`);
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
