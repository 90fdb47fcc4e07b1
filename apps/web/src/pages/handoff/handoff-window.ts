// The hand-off window as `<input type="datetime-local">` shows it (the reader's own clock, minutes) and
// as the API takes it (ISO instants).

/** A shift is usually half a day: the digest covers the last 12 hours unless someone picks otherwise. */
export const DEFAULT_WINDOW_HOURS = 12;

const pad = (n: number) => String(n).padStart(2, '0');

/** `2027-03-12T08:05` in the local time zone, the value a datetime-local input takes. */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The instant a datetime-local value means here, or null for an empty or malformed one. */
export function fromLocalInput(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return null;
  const [year = 0, month = 1, day = 1, hours = 0, minutes = 0] = match.slice(1).map(Number);
  const date = new Date(year, month - 1, day, hours, minutes);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function defaultWindow(now: Date = new Date()): { since: string; until: string } {
  return {
    since: toLocalInput(new Date(now.getTime() - DEFAULT_WINDOW_HOURS * 3_600_000)),
    until: toLocalInput(now),
  };
}

/** The request body, or what is wrong with the window in words. */
export function windowBody(
  since: string,
  until: string,
): { since: string; until: string } | { problem: string } {
  const start = fromLocalInput(since);
  const end = fromLocalInput(until);
  if (!start || !end) return { problem: 'Give both a start and an end.' };
  if (start >= end) return { problem: 'The start must be before the end.' };
  return { since: start.toISOString(), until: end.toISOString() };
}
