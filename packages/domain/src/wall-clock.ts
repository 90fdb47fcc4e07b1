import { DateTime, IANAZone } from 'luxon';

/**
 * Wall-clock time in a time zone, as the on-call maths need it. The zone data and the ISO parser are
 * luxon's (which reads the runtime's IANA database through Intl); what lives here is only the rule for
 * wall times that a DST change skips or repeats, because luxon's own choice there depends on the
 * current date, and this package never reads the clock.
 *
 * A "wall" value is milliseconds on a clock without time zones: `Date.UTC(year, month, day, h, m, s)`
 * of the local date and time.
 */

const DAY_MS = 86_400_000;

export function isValidTimeZone(name: string): boolean {
  return IANAZone.isValidZone(name);
}

export function timeZone(name: string): IANAZone {
  const zone = IANAZone.create(name);
  if (!zone.isValid) throw new RangeError(`unknown time zone "${name}"`);
  return zone;
}

/** The wall-clock time an instant shows in `zone`. */
export function wallOf(zone: IANAZone, instant: number): number {
  return instant + zone.offset(instant) * 60_000;
}

/**
 * The earliest instant whose wall time in `zone` is `wall` or later. So a wall time that a fall-back
 * repeats means its first occurrence, and one that a spring-forward skips means the moment the clock
 * jumps over it. Unlike a plain offset lookup this never runs backwards: a later wall time never maps
 * to an earlier instant, which keeps rotations in order.
 */
export function instantOfWall(zone: IANAZone, wall: number): number {
  // The offsets in force a day either side cover every instant that can show this wall time: zones
  // are at most 14 hours from UTC, and none changes its clock twice in two days.
  const offsets = [...new Set([zone.offset(wall - DAY_MS), zone.offset(wall), zone.offset(wall + DAY_MS)])];
  const exact = offsets
    .map((offset) => wall - offset * 60_000)
    .filter((instant) => wallOf(zone, instant) === wall);
  if (exact.length > 0) return Math.min(...exact);
  // Skipped: find when the clock jumped. Before `lo` the wall time is still earlier, by `hi` it is later.
  let lo = wall - Math.max(...offsets) * 60_000;
  let hi = wall - Math.min(...offsets) * 60_000;
  if (!(wallOf(zone, lo) < wall && wallOf(zone, hi) >= wall)) return hi;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (wallOf(zone, mid) >= wall) hi = mid;
    else lo = mid;
  }
  return hi;
}

const hasOffset = /(?:Z|[+-]\d\d(?::?\d\d)?)$/i;

/**
 * Reads an ISO 8601 date-time. One with an offset (or `Z`) is that instant; one without is wall-clock
 * time in `zoneName`, with the same rule for skipped and repeated times as `instantOfWall`. The import
 * stores Grafana OnCall's offset-less rotation starts this way too
 * (docs/integrations/grafana-oncall.md#on_call_shifts).
 */
export function parseZonedDateTime(text: string, zoneName: string): Date {
  if (hasOffset.test(text)) {
    const instant = DateTime.fromISO(text, { setZone: true });
    if (!instant.isValid) throw new RangeError(`not an ISO 8601 date-time: "${text}"`);
    return instant.toJSDate();
  }
  const wall = DateTime.fromISO(text, { zone: 'utc' });
  if (!wall.isValid) throw new RangeError(`not an ISO 8601 date-time: "${text}"`);
  return new Date(instantOfWall(timeZone(zoneName), wall.toMillis()));
}
