// Prints vitest's JSON report as one line: "Tests: N passed, N failed, N skipped", and exits 1 on any
// failure. vitest counts only tests: a file that fails to load (a missing fixture, a syntax error) or
// whose hooks fail outside any test reports no failed test, so such a file counts as one failure here
// and is named; otherwise a run that lost whole files would still print "0 failed".
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const file = process.argv[2];
if (!file || !existsSync(file)) {
  console.log('Tests: 0 passed, 1 failed (no test report was written)');
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const brokenFiles = (report.testResults ?? []).filter(
  (result) =>
    result.status === 'failed' &&
    !(result.assertionResults ?? []).some((assertion) => assertion.status === 'failed'),
);
for (const result of brokenFiles) {
  const firstLine = String(result.message ?? '').split('\n')[0] || 'no message';
  console.log(`Failed outside any test: ${relative(process.cwd(), result.name)}: ${firstLine}`);
}
const failed = report.numFailedTests + brokenFiles.length;
const skipped = report.numPendingTests + report.numTodoTests;
console.log(`Tests: ${report.numPassedTests} passed, ${failed} failed, ${skipped} skipped`);
if (report.numTotalTests === 0) {
  console.log('No test ran.');
  process.exit(1);
}
if (failed > 0 || report.success === false) process.exit(1);
