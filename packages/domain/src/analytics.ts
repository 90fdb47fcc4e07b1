/**
 * The pure rules behind the analytics view (docs/analytics.md): which wall-clock hours count as out of
 * hours, and which UTC days a window covers. The database computes the wall clock of each page in its
 * schedule's time zone (PostgreSQL's own zone data), so no page has to travel here one by one.
 */

/** Office hours: 09:00 to 18:00, Monday to Friday, on the wall clock of the page's time zone. */
export const officeHours = { startHour: 9, endHour: 18, firstWeekday: 1, lastWeekday: 5 } as const;

/** A wall-clock moment reduced to what the rule needs: ISO weekday (1 = Monday … 7 = Sunday) and hour. */
export interface WallClockHour {
  isoWeekday: number;
  hour: number;
}

/** Outside 09:00–18:00 Monday–Friday: 18:00 sharp is out of hours, 09:00 sharp is not. */
export function isOutOfHours({ isoWeekday, hour }: WallClockHour): boolean {
  if (isoWeekday < officeHours.firstWeekday || isoWeekday > officeHours.lastWeekday) return true;
  return hour < officeHours.startHour || hour >= officeHours.endHour;
}

const DAY_MS = 86_400_000;

/**
 * Every UTC day (`YYYY-MM-DD`) the window `[from, to)` touches, in order: the daily series lists days
 * without a single incident too, so a chart shows the quiet days as zero instead of skipping them.
 */
export function utcDaysOf(from: Date, to: Date): string[] {
  const days: string[] = [];
  const last = to.getTime() - 1;
  for (let day = Math.floor(from.getTime() / DAY_MS) * DAY_MS; day <= last; day += DAY_MS) {
    days.push(new Date(day).toISOString().slice(0, 10));
  }
  return days;
}
