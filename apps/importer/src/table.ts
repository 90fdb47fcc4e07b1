/**
 * Plain-text tables for the terminal: columns padded to their widest cell, two spaces apart, the last
 * column left ragged so long messages do not push every line wide.
 */
export function formatTable(header: string[], rows: string[][], indent = '  '): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    indent +
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** `604800` → `7d`, `43200` → `12h`, `93600` → `1d 2h`, `90` → `1m 30s`. */
export function formatDuration(seconds: number): string {
  const parts: string[] = [];
  let rest = seconds;
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count}${unit}`);
    rest -= count * size;
  }
  return parts.join(' ') || '0s';
}
