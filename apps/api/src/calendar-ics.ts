import type { CalendarContent } from '@firebreak/services';
import ical from 'ical-generator';

/** Calendar applications poll; a quarter of an hour keeps them close to a change without hammering. */
const REFRESH_SECONDS = 15 * 60;

/**
 * The iCalendar document of a feed. Times are written in UTC, which every calendar shows in its own
 * zone; each shift's UID stays the same while its person and start do, so an edited shift updates the
 * event instead of adding a second one.
 */
export function renderCalendar(content: CalendarContent, now: Date): string {
  const calendar = ical({
    name: content.name,
    prodId: { company: 'Firebreak', product: 'on-call', language: 'EN' },
    ttl: REFRESH_SECONDS,
  });
  for (const event of content.events) {
    const how = event.source === 'override' ? 'override' : `layer ${event.layer_name ?? ''}`.trim();
    calendar.createEvent({
      id: event.uid,
      start: event.starts_at,
      end: event.ends_at,
      stamp: now,
      summary: `On call: ${event.person_name} (${event.schedule_name})`,
      description: `${event.person_name} is on call for ${event.schedule_name} (${how}).`,
    });
  }
  return calendar.toString();
}

/** The feed's address: absolute under `PUBLIC_URL` when it is set, else the path alone. */
export function calendarUrl(publicUrl: string | undefined, token: string): string {
  return `${(publicUrl ?? '').replace(/\/+$/, '')}/api/v1/calendar/${token}.ics`;
}
