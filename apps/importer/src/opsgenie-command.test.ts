// `firebreak-import opsgenie` as an operator runs it: against a database of its own (holding what
// preexisting.json names) and the fake Opsgenie API serving the fixtures of packages/testing.
import { createSql, type Sql } from '@firebreak/db';
import type { ImportResult } from '@firebreak/schema';
import {
  createTestDatabase,
  type FakeOpsgenieApi,
  opsgenieFixturesDir as fixtures,
  startFakeOpsgenieApi,
  type TestDatabase,
} from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli';
import { countRows, insertPreexistingUsers, runImporterProcess } from './command-test-process';
import { opsgenieCommand } from './opsgenie-command';

const KEY = 'opsgenie-cli-key';

let db: TestDatabase;
let sql: Sql;
let opsgenie: FakeOpsgenieApi;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = createSql(db.url, { max: 2 });
  await insertPreexistingUsers(sql, fixtures);
  opsgenie = await startFakeOpsgenieApi({ fixturesDir: fixtures, apiKey: KEY, maxPageSize: 4 });
});
afterAll(async () => {
  await opsgenie?.close();
  await sql?.end();
  await db?.drop();
});

const cli = (args: string[], env: Record<string, string | undefined> = { DATABASE_URL: db.url }) =>
  runImporterProcess(args, env, 'OPSGENIE_API_KEY');
const count = (table: string) => countRows(sql, table);

describe('firebreak-import opsgenie', () => {
  it('--dry-run --json prints the answer and writes nothing', async () => {
    const result = await cli(['opsgenie', '--url', opsgenie.url, '--api-key', KEY, '--dry-run', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const answer: ImportResult = JSON.parse(result.stdout);
    expect(answer.dry_run).toBe(true);
    expect(answer.summary.integrations).toEqual({ created: 3, skipped: 0 });
    expect(await count('users')).toBe(1);
  });

  it('imports with the key from OPSGENIE_API_KEY and prints the report', async () => {
    const result = await cli(['opsgenie', '--url', opsgenie.url], {
      DATABASE_URL: db.url,
      OPSGENIE_API_KEY: KEY,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Opsgenie import: done.');
    expect(result.stdout).toMatch(/integrations\s+3\s+0/);
    expect(result.stdout).toContain('Checkout API');
    expect(await count('users')).toBe(6);
    expect(await count("integrations where type = 'opsgenie'")).toBe(3);
  });

  it('shows pages read on a terminal, and what Opsgenie asks to wait', async () => {
    opsgenie.throttle({ resource: 'users', periodSeconds: 1 });
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      ['opsgenie', '--url', opsgenie.url, '--api-key', KEY, '--dry-run'],
      [opsgenieCommand({ DATABASE_URL: db.url })],
      { out: (t) => out.push(t), err: (t) => err.push(t), errIsTerminal: true },
    );
    expect(code).toBe(0);
    const usersLine = err
      .join('')
      .split('\n')
      .find((line) => line.includes('Reading users'));
    expect(usersLine?.split('\r\u001b[2K').filter(Boolean)).toEqual([
      'Reading users: 0 pages, 0 read (Opsgenie asks to wait 1 s)',
      'Reading users: 1 page, 4 read',
      'Reading users: 2 pages, 6 read',
    ]);
    expect(out.join('')).toContain('Opsgenie import: DRY RUN, nothing was written.');
  });

  it('exits 1 with a clear message for a refused key or one without configuration access', async () => {
    const wrong = await cli(['opsgenie', '--url', opsgenie.url, '--api-key', 'wrong-key', '--json']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('firebreak-import opsgenie: Opsgenie refused the API key (HTTP 401)');
    expect(JSON.parse(wrong.stdout).error).toMatchObject({ code: 'validation_failed' });
    expect(wrong.stderr + wrong.stdout).not.toContain('wrong-key');
    const limited = await cli([
      'opsgenie',
      '--url',
      opsgenie.url,
      '--api-key',
      opsgenie.keyWithoutConfigAccess,
    ]);
    expect(limited.code).toBe(1);
    expect(limited.stderr).toContain('lacks configuration access');
  });

  it('exits 2 for a wrong command line or a missing DATABASE_URL', async () => {
    const missing = await cli(['opsgenie', '--url', opsgenie.url]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--api-key is required');
    const badUrl = await cli(['opsgenie', '--url', 'api.opsgenie.com', '--api-key', 'x']);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('--url must be an http:// or https:// URL');
    const noDatabase = await cli(['opsgenie', '--api-key', KEY], {});
    expect(noDatabase.code).toBe(2);
    expect(noDatabase.stderr).toContain('DATABASE_URL is not set');
    const help = await cli(['opsgenie', '--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: firebreak-import opsgenie --api-key');
  });
});
