// `pnpm test` ends with the line scripts/test-summary.mjs prints from vitest's JSON report; a test
// file that failed to load must show as a failure there, and fail the command.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const script = resolve(import.meta.dirname, '../scripts/test-summary.mjs');
const dir = mkdtempSync(join(tmpdir(), 'firebreak-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const passing = {
  status: 'passed',
  name: '/repo/a.test.ts',
  message: '',
  assertionResults: [{ status: 'passed' }],
};
const counts = {
  numPassedTests: 1,
  numFailedTests: 0,
  numPendingTests: 0,
  numTodoTests: 0,
  numTotalTests: 1,
};

async function summarise(report: object): Promise<{ code: number; stdout: string }> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(report));
  try {
    const { stdout } = await run(process.execPath, [script, file]);
    return { code: 0, stdout };
  } catch (error) {
    const failure = error as { code: number; stdout: string };
    return { code: failure.code, stdout: failure.stdout };
  }
}

describe('the test summary line', () => {
  it('says 0 failed and succeeds when every file ran and passed', async () => {
    const { code, stdout } = await summarise({ ...counts, success: true, testResults: [passing] });
    expect(stdout).toContain('Tests: 1 passed, 0 failed, 0 skipped');
    expect(code).toBe(0);
  });

  it('counts a file that failed to load as a failure, names it, and fails', async () => {
    const broken = {
      status: 'failed',
      name: join(process.cwd(), 'tests/broken.test.ts'),
      message: "ENOENT: no such file or directory, open 'fixtures/expected.json'\n    at …",
      assertionResults: [],
    };
    const { code, stdout } = await summarise({ ...counts, success: false, testResults: [passing, broken] });
    expect(stdout).toContain(
      "Failed outside any test: tests/broken.test.ts: ENOENT: no such file or directory, open 'fixtures/expected.json'",
    );
    expect(stdout).toContain('Tests: 1 passed, 1 failed, 0 skipped');
    expect(code).toBe(1);
  });
});
