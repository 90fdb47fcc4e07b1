import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Drill, DrillResult } from './types';

/** One row per drill: verdict, time, the promise, and the measured numbers (and the reason of a failure). */
export function printResults(
  results: DrillResult[],
  drills: ReadonlyArray<Pick<Drill<never>, 'name' | 'promise'>>,
): void {
  const nameWidth = Math.max(5, ...results.map((r) => r.name.length));
  console.log(`${'drill'.padEnd(nameWidth)}  result  time`);
  console.log(`${'-'.repeat(nameWidth)}  ------  ------`);
  for (const result of results) {
    const promise = drills.find((drill) => drill.name === result.name)?.promise ?? '';
    console.log(
      `${result.name.padEnd(nameWidth)}  ${(result.pass ? 'pass' : 'FAIL').padEnd(6)}  ${`${result.seconds} s`.padStart(6)}  ${promise}`,
    );
    const numbers = Object.entries(result.numbers).map(([what, value]) => `${what}: ${value}`);
    if (numbers.length > 0) console.log(`${' '.repeat(nameWidth + 18)}${numbers.join(', ')}`);
    if (result.reason) console.log(`${' '.repeat(nameWidth + 18)}why: ${result.reason}`);
  }
  const failed = results.filter((result) => !result.pass).length;
  console.log(`\n${results.length - failed} of ${results.length} drills passed`);
}

export function writeResults(dir: string, results: DrillResult[], meta: Record<string, unknown>): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'latest.json');
  writeFileSync(file, `${JSON.stringify({ ...meta, results }, null, 2)}\n`);
  return file;
}
