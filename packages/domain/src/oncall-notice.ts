import { DateTime } from 'luxon';
import { timeZone } from './wall-clock';

/**
 * An instant as the people of a schedule read it: in the schedule's zone, with the zone's short name,
 * so "until Mon 30 Mar, 09:00 CEST" means the same to everyone on the rotation wherever they are
 * (docs/schedules.md#shift-notices).
 */
export function scheduleTime(at: Date, zone: string): string {
  const local = DateTime.fromJSDate(at, { zone: timeZone(zone) }).setLocale('en-GB');
  return `${local.toFormat('ccc d LLL, HH:mm')} ${zoneName(local)}`;
}

/** "GMT-5" and the like: an offset, not a name anyone on the rotation says. */
const BARE_OFFSET = /^(GMT|UTC)[+-]/;

/**
 * The zone's short name as people say it: English has names for American zones only in en-US ("EST",
 * "PDT") and for European ones only in en-GB ("CET", "BST"); where neither has one, the IANA name
 * ("Asia/Tokyo"), never a bare offset.
 */
function zoneName(local: DateTime): string {
  for (const locale of ['en-US', 'en-GB']) {
    const name = local.setLocale(locale).offsetNameShort;
    if (name && !BARE_OFFSET.test(name)) return name;
  }
  return local.zoneName ?? 'UTC';
}

/** Shift notices are planned for starts from this long ago (a change just after a start still tells). */
export const SHIFT_NOTICE_LATE_MS = 10 * 60_000;
/** And up to this far ahead; the worker's planning pass moves the horizon along. */
export const SHIFT_NOTICE_HORIZON_MS = 48 * 3_600_000;
/** A span's end is looked for this far past the horizon ("on call until …"). */
export const SHIFT_NOTICE_END_LOOKAHEAD_MS = 14 * 86_400_000;

export interface NoticeSpan {
  userId: string;
  startsAt: Date;
  endsAt: Date;
}

/**
 * The notices a schedule owes from `now`: one per start of someone's continuous time on call (a layer
 * turn followed by an override of the same person is one span), for people with an account, starting
 * in [now − SHIFT_NOTICE_LATE_MS, now + SHIFT_NOTICE_HORIZON_MS). `spans` must come from a window that
 * begins before that range, so a span's start is its real start.
 */
export function noticesDue(
  spans: ReadonlyArray<{ person: { user_id: string | null }; start: Date; end: Date }>,
  now: Date,
): NoticeSpan[] {
  const from = now.getTime() - SHIFT_NOTICE_LATE_MS;
  const to = now.getTime() + SHIFT_NOTICE_HORIZON_MS;
  return spans.flatMap((span) => {
    const start = span.start.getTime();
    if (span.person.user_id === null || start < from || start >= to) return [];
    return [{ userId: span.person.user_id, startsAt: span.start, endsAt: span.end }];
  });
}

/**
 * How far past the start a notice looks for the end of the shift it announces ("until …"). A shift
 * that runs past it is worded without an end, "for at least 30 days", never with a guessed one.
 */
export const SHIFT_NOTICE_END_SEARCH_MS = 30 * 86_400_000;

/**
 * The "how long" of a shift notice: "until Mon 30 Mar, 09:00 CEST" when the end is known, else (the
 * shift runs past `searchedUntil`) "for at least N days" from `from`, rounded down.
 */
export function shiftLasts(from: Date, end: Date | undefined, searchedUntil: Date, zone: string): string {
  if (end && end.getTime() < searchedUntil.getTime()) return `until ${scheduleTime(end, zone)}`;
  const days = Math.floor((searchedUntil.getTime() - from.getTime()) / 86_400_000);
  return `for at least ${days} day${days === 1 ? '' : 's'}`;
}
