// `firebreak-import pagerduty` run as a process, as an operator runs it: against a database of its own and
// the fake PagerDuty REST API serving the fixture account of packages/testing.
import { createSql, type Sql } from '@firebreak/db';
import type { ImportResult } from '@firebreak/schema';
import {
  createTestDatabase,
  type FakePagerDutyApi,
  pagerdutyFixturesDir,
  startFakePagerDutyApi,
  type TestDatabase,
} from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli';
import { countRows, runImporterProcess } from './command-test-process';
import { pagerdutyCommand } from './pagerduty-command';

const TOKEN = 'pagerduty-cli-token';

let db: TestDatabase;
let sql: Sql;
let pagerduty: FakePagerDutyApi;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = createSql(db.url, { max: 2 });
  pagerduty = await startFakePagerDutyApi({ fixturesDir: pagerdutyFixturesDir, token: TOKEN, maxLimit: 3 });
});
afterAll(async () => {
  await pagerduty?.close();
  await sql?.end();
  await db?.drop();
});

const cli = (args: string[], env: Record<string, string | undefined> = { DATABASE_URL: db.url }) =>
  runImporterProcess(args, env, 'PAGERDUTY_API_TOKEN');
const count = (table: string) => countRows(sql, table);

describe('firebreak-import pagerduty', () => {
  it('--dry-run --json prints the answer and writes nothing (the token from PAGERDUTY_API_TOKEN)', async () => {
    const result = await cli(['pagerduty', '--url', pagerduty.url, '--dry-run', '--json'], {
      DATABASE_URL: db.url,
      PAGERDUTY_API_TOKEN: TOKEN,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const answer: ImportResult = JSON.parse(result.stdout);
    expect(answer.dry_run).toBe(true);
    expect(answer.summary.users).toEqual({ created: 7, skipped: 0 });
    expect(answer.summary.integrations).toEqual({ created: 4, skipped: 0 });
  });

  it('imports and prints a table with the integrations created and what to do about the others', async () => {
    const result = await cli(['pagerduty', `--url=${pagerduty.url}`, '--token', TOKEN]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('PagerDuty import: done.');
    expect(result.stdout).toMatch(/integrations\s+4\s+0\n/);
    expect(result.stdout).toMatch(
      /Checkout API \/ Prometheus\s+events_api_v2_inbound_integration\s+\/v2\/enqueue\s+yes\s+senders keep/,
    );
    expect(result.stdout).toMatch(
      /Checkout API \/ Support inbox\s+generic_email_inbound_integration\s+\(none\)\s+-\s+e-mail is not received/,
    );
    expect(result.stdout.match(/fbp_[A-Za-z0-9_-]{43}/g)).toHaveLength(7);
    expect(await count('integrations')).toBe(4);
  });

  it('shows pages read on a terminal, PagerDuty’s waits included', async () => {
    pagerduty.throttle({ resource: 'services', reset: 0 });
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t), errIsTerminal: true };
    const code = await runCli(
      ['pagerduty', '--url', pagerduty.url, '--token', TOKEN, '--dry-run'],
      [pagerdutyCommand({ DATABASE_URL: db.url })],
      io,
    );
    expect(code).toBe(0);
    const text = err.join('');
    expect(text).toContain('Reading users: 3 pages, 7 read');
    expect(text).toContain('(PagerDuty asks to wait 0 s)');
    expect(out.join('')).toContain('PagerDuty import: DRY RUN, nothing was written.');
  });

  it('exits 1 with a clear message when PagerDuty refuses the token', async () => {
    const refused = await cli(['pagerduty', '--url', pagerduty.url, '--token', 'wrong-token']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^firebreak-import pagerduty: PagerDuty refused the API token \(HTTP 401/);
    expect(refused.stderr + refused.stdout).not.toContain('wrong-token');
  });

  it('exits 2 for a wrong command line; --help shows the options', async () => {
    const missing = await cli(['pagerduty', '--url', pagerduty.url]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--token is required');
    const help = await cli(['pagerduty', '--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: firebreak-import pagerduty --token');
  });
});
