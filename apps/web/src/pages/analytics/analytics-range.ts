// The analytics page's window as people pick it: whole UTC days, both ends included, because the daily
// series the API answers is in UTC days (docs/analytics.md). The API's `to` is exclusive, so the query
// asks for the day after the last one shown.

const DAY_MS = 86_400_000;

export const presetDays = [7, 30, 90] as const;
export const defaultDays = 30;

export interface DayRange {
  /** First day shown, `YYYY-MM-DD` (UTC). */
  from: string;
  /** Last day shown, included. */
  to: string;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const msOf = (day: string) => Date.parse(`${day}T00:00:00Z`);
const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(msOf(value));

/** The last `days` days, today (UTC) the last of them. */
export function lastDays(days: number, now: number = Date.now()): DayRange {
  return { from: dayOf(now - (days - 1) * DAY_MS), to: dayOf(now) };
}

/** The range in the URL, each missing or malformed end taken from the default 30 days. */
export function rangeOf(from: string, to: string, now: number = Date.now()): DayRange {
  const fallback = lastDays(defaultDays, now);
  return { from: isDay(from) ? from : fallback.from, to: isDay(to) ? to : fallback.to };
}

/** How many days the range shows (both ends included); 0 or less when `to` is before `from`. */
export function daysIn(range: DayRange): number {
  return Math.round((msOf(range.to) - msOf(range.from)) / DAY_MS) + 1;
}

/** The API's query string: `to` is the day after the last one shown, since the API's end is exclusive. */
export function analyticsQuery(range: DayRange, groupBy: string): string {
  const params = new URLSearchParams({ from: range.from, to: dayOf(msOf(range.to) + DAY_MS) });
  if (groupBy.trim()) params.set('group_by', groupBy.trim());
  return params.toString();
}

/** Which preset a range is, if any (for the pressed state of its button). */
export function presetOf(range: DayRange, now: number = Date.now()): number | null {
  return (
    presetDays.find((days) => {
      const preset = lastDays(days, now);
      return preset.from === range.from && preset.to === range.to;
    }) ?? null
  );
}
