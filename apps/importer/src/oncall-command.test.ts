// `firebreak-import oncall` run as a process, as an operator runs it: against a database of its own
// (holding preexisting.json) and the fake OnCall API serving the fixtures of packages/testing.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createSql, type Sql } from '@firebreak/db';
import type { OnCallImportResult } from '@firebreak/schema';
import {
  createTestDatabase,
  type FakeOnCallApi,
  oncallFixturesDir as fixtures,
  startFakeOnCallApi,
  type TestDatabase,
} from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli';
import { countRows, insertPreexistingUsers, runImporterProcess } from './command-test-process';
import { oncallCommand } from './oncall-command';

const expected = JSON.parse(readFileSync(resolve(fixtures, 'expected.json'), 'utf8'));
const TOKEN = 'oncall-cli-token';

let db: TestDatabase;
let sql: Sql;
let oncall: FakeOnCallApi;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = createSql(db.url, { max: 2 });
  await insertPreexistingUsers(sql, fixtures);
  oncall = await startFakeOnCallApi({ fixturesDir: fixtures, token: TOKEN, maxPageSize: 3 });
});
afterAll(async () => {
  await oncall?.close();
  await sql?.end();
  await db?.drop();
});

const cli = (args: string[], env: Record<string, string | undefined> = { DATABASE_URL: db.url }) =>
  runImporterProcess(args, env, 'ONCALL_API_TOKEN');
const count = (table: string) => countRows(sql, table);

describe('firebreak-import oncall', () => {
  it('--dry-run --json prints the answer and writes nothing', async () => {
    const result = await cli(['oncall', '--url', oncall.url, '--token', TOKEN, '--dry-run', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const answer: OnCallImportResult = JSON.parse(result.stdout);
    expect(answer.dry_run).toBe(true);
    expect(answer.summary).toEqual(expected.summary);
    expect(answer.integrations).toEqual(expected.integrations);
    expect(await count('users')).toBe(1);
    expect(await count('schedules')).toBe(0);
  });

  it('imports and prints a table by default, the setup tokens included', async () => {
    const result = await cli(['oncall', `--url=${oncall.url}`, '--token', TOKEN]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Grafana OnCall import: done.');
    expect(result.stdout).toMatch(/users\s+5\s+1\n/);
    expect(result.stdout).toMatch(/Platform Primary\s+Europe\/Paris\s+0 Primary weekly\s+weekly\s+7d/);
    expect(result.stdout).toMatch(/user\s+Dana Kovacs\s+a user with this e-mail already exists/);
    expect(result.stdout).toMatch(/Payments support inbox\s+inbound_email\s+\(none/);
    expect(result.stdout.match(/fbp_[A-Za-z0-9_-]{43}/g)).toHaveLength(5);
    expect(await count('users')).toBe(6);
    expect(await count('escalation_policies')).toBe(2);
    expect(await count('setup_tokens')).toBe(5);
  });

  it('a second run skips everything as conflicts', async () => {
    const result = await cli(['oncall', '--url', oncall.url, '--json'], {
      DATABASE_URL: db.url,
      ONCALL_API_TOKEN: TOKEN,
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).summary).toEqual({
      users: { created: 0, skipped: 6 },
      schedules: { created: 0, skipped: 3 },
      escalation_policies: { created: 0, skipped: 2 },
      integrations: { created: 0, skipped: 0 },
    });
    expect(await count('users')).toBe(6);
  });

  it('shows pages read per resource on a terminal, and nothing of it with --json', async () => {
    const runInProcess = async (extra: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t), errIsTerminal: true };
      const code = await runCli(
        ['oncall', '--url', oncall.url, '--token', TOKEN, '--dry-run', ...extra],
        [oncallCommand({ DATABASE_URL: db.url })],
        io,
      );
      return { code, out: out.join(''), err: err.join('') };
    };
    const table = await runInProcess([]);
    expect(table.code).toBe(0);
    // Six users at three per page: the line rewrites itself per page and ends with the total.
    const usersLine = table.err.split('\n').find((line) => line.includes('Reading users'));
    expect(usersLine?.split('\r\u001b[2K').filter(Boolean)).toEqual([
      'Reading users: 1 page, 3 read',
      'Reading users: 2 pages, 6 read',
    ]);
    expect(table.err).toContain('Reading escalation_policies: 3 pages, 8 read');

    const json = await runInProcess(['--json']);
    expect(json.code).toBe(0);
    expect(json.err).toBe('');
    expect(JSON.parse(json.out).dry_run).toBe(true);
  });

  it('exits 1 with a clear message when OnCall refuses the token; --json also prints the error', async () => {
    const result = await cli(['oncall', '--url', oncall.url, '--token', 'wrong-token', '--json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'firebreak-import oncall: Grafana OnCall refused the API token (HTTP 403: Invalid token.).\n',
    );
    expect(JSON.parse(result.stdout).error).toMatchObject({ code: 'validation_failed' });
    expect(result.stderr + result.stdout).not.toContain('wrong-token');
  });

  it('exits 2 for a wrong command line or a missing DATABASE_URL', async () => {
    const missing = await cli(['oncall', '--url', oncall.url]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--token is required');
    const badUrl = await cli(['oncall', '--url', 'oncall.example.com', '--token', 'x']);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('--url must be an http:// or https:// URL');
    const unknown = await cli(['oncall', '--dryrun']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--dryrun'");
    const noDatabase = await cli(['oncall', '--url', oncall.url, '--token', TOKEN], {});
    expect(noDatabase.code).toBe(2);
    expect(noDatabase.stderr).toContain('DATABASE_URL is not set');
    const help = await cli(['oncall', '--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: firebreak-import oncall --url');
  });
});
