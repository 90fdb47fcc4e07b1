import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { type Sql, users } from '@firebreak/db';

/** What the command tests share: the importer run as a process, as an operator runs it, and its database. */

const run = promisify(execFile);
const bin = resolve(import.meta.dirname, '../bin/firebreak-import.mjs');

/**
 * Runs `firebreak-import`; answers its exit code and output instead of throwing on a non-zero exit. The
 * variables the command reads (LOG_LEVEL, DATABASE_URL and the source's credential variable) come only
 * from `env`, never from the shell that runs the tests.
 */
export async function runImporterProcess(
  args: string[],
  env: Record<string, string | undefined>,
  credentialVariable: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { LOG_LEVEL: _, DATABASE_URL: __, [credentialVariable]: ___, ...inherited } = process.env;
  try {
    const { stdout, stderr } = await run(bin, args, { env: { ...inherited, ...env }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The people a fixture's preexisting.json names, already in the database before the import. */
export async function insertPreexistingUsers(sql: Sql, fixturesDir: string): Promise<void> {
  const { user_emails } = JSON.parse(readFileSync(resolve(fixturesDir, 'preexisting.json'), 'utf8'));
  for (const email of user_emails as string[]) {
    await users.insertUser(sql, { email, name: 'Dana (already here)', role: 'viewer' });
  }
}

export const countRows = async (sql: Sql, table: string) =>
  (await sql.unsafe(`select count(*)::int as n from ${table}`))[0]!.n as number;
