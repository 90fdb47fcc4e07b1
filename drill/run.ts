// `pnpm drill [name…]`: the failure drills (README.md#reliability-drills-pnpm-drill), each a bounded
// scenario with a verdict, against real processes on private PostgreSQL and Redis servers. One table;
// JSON in drill/results/latest.json; exit code 1 when any drill failed.
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { runDrill } from './lib/harness';
import { printResults, writeResults } from './lib/report';
import type { DrillResult } from './lib/types';
import { drills } from './scenarios';

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !drills.some((drill) => drill.name === name));
if (unknown.length > 0) {
  console.error(`unknown drill(s): ${unknown.join(', ')}; known: ${drills.map((d) => d.name).join(', ')}`);
  process.exit(2);
}
const chosen = wanted.length > 0 ? drills.filter((drill) => wanted.includes(drill.name)) : drills;

const results: DrillResult[] = [];
for (const drill of chosen) {
  process.stderr.write(`drill ${drill.name}: ${drill.promise}…\n`);
  const result = await runDrill(drill);
  process.stderr.write(`  ${result.pass ? 'pass' : `FAIL: ${result.reason}`} (${result.seconds} s)\n`);
  results.push(result);
}
console.log('');
printResults(results, drills);
const file = writeResults(resolve(import.meta.dirname, 'results'), results, {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
});
console.log(`\nwritten to ${file}`);
process.exit(results.every((result) => result.pass) ? 0 : 1);
