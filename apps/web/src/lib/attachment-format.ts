// How the UI writes an attachment's size (docs/attachments.md), on the card and on the timeline.

/** `512 B`, `2.4 KiB`, `10 MiB`: powers of 1024, as the server's 10 MiB limit is counted. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 10 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}
