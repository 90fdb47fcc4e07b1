import type { ActionItem } from './postmortem-types';

/**
 * Today as `YYYY-MM-DD` in UTC. A due date is a day, and the API calls an item overdue by the UTC day
 * (docs/postmortems.md#action-items): reading it in the reader's own calendar would mark an item late
 * in Sydney that the server, and the Action items list's order, still call on time.
 */
export function utcToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** Open and due before today (UTC); an item due today is not late yet, and a done one never is. */
export function isOverdue(
  item: Pick<ActionItem, 'status' | 'due_date'>,
  today: string = utcToday(),
): boolean {
  return item.status === 'open' && item.due_date !== null && item.due_date < today;
}

/** "12 Mar 2027" for `2027-03-12`, read as a calendar day (no time zone shifts it to the 11th). */
export function formatDueDate(date: string): string {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  return new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' }).format(
    new Date(year, month - 1, day),
  );
}
