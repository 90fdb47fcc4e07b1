// Times and durations as an operator reads them during an outage: short, absolute where it matters.

/** `1h 02m`, `3m 05s`, `45s`, `2d 4h`. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${pad(minutes)}m`;
  if (minutes > 0) return `${minutes}m ${pad(seconds)}s`;
  return `${seconds}s`;
}

/** "5m ago", "just now", "in 3h": for lists; the exact time goes in a title attribute. */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const diff = Math.round((now - Date.parse(iso)) / 1000);
  if (Math.abs(diff) < 10) return 'just now';
  const text = formatDuration(Math.abs(diff)).split(' ')[0];
  return diff > 0 ? `${text} ago` : `in ${text}`;
}

const dateTime = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}
