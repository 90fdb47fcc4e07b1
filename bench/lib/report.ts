import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BenchResult, passes } from './types';

export function printTable(results: BenchResult[]): void {
  const rows = results.map((r) => {
    const verdict = passes(r);
    return [
      r.name,
      `${formatNumber(r.value)} ${r.unit}`,
      r.target ? `${r.target.op} ${formatNumber(r.target.value)} ${r.unit}` : '',
      verdict === undefined ? '' : verdict ? 'ok' : 'MISSED',
    ];
  });
  const header = ['benchmark', 'value', 'target', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

export function writeJson(dir: string, results: BenchResult[], meta: Record<string, unknown>): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'latest.json');
  const withVerdicts = results.map((r) => ({ ...r, pass: passes(r) ?? null }));
  writeFileSync(file, `${JSON.stringify({ ...meta, results: withVerdicts }, null, 2)}\n`);
  return file;
}

function formatNumber(value: number): string {
  return value >= 100 ? Math.round(value).toLocaleString('en-US') : String(Math.round(value * 100) / 100);
}
