import type { Schedule } from '@firebreak/schema';
import type { CreateUnavailabilityInput } from '../../lib/api-unavailability';
import { fromLocalInput, toLocalInput } from '../maintenance/maintenance-form';

/**
 * The Unavailability panel's form (docs/schedules.md#unavailability). Times are typed in the browser's
 * own time zone (`datetime-local`) and sent as UTC instants. Only people who take part in a layer can
 * be marked: for anyone else the range would change nothing, and the API refuses it.
 */
export interface UnavailabilityForm {
  userId: string;
  startsAt: string;
  endsAt: string;
}

/** How far ahead the panel lists ranges: the longest window the API answers. */
export const UNAVAILABILITY_LIST_DAYS = 90;

/** The users taking part in any layer, once each, by name. */
export function layerPeople(schedule: Pick<Schedule, 'layers'>): Array<{ id: string; name: string }> {
  const byId = new Map<string, string>();
  for (const layer of schedule.layers) {
    for (const p of layer.participants) if (p.user_id) byId.set(p.user_id, p.name);
  }
  return [...byId].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
}

/** From now for a day: the commonest absence is "today". */
export function emptyUnavailabilityForm(now: Date, userId: string): UnavailabilityForm {
  return {
    userId,
    startsAt: toLocalInput(now),
    endsAt: toLocalInput(new Date(now.getTime() + 86_400_000)),
  };
}

export function unavailabilityInputOf(
  form: UnavailabilityForm,
): { input: CreateUnavailabilityInput } | { error: string } {
  if (!form.userId) return { error: 'Choose who is unavailable.' };
  const startsAt = fromLocalInput(form.startsAt);
  const endsAt = fromLocalInput(form.endsAt);
  if (!startsAt || !endsAt) return { error: 'Give a start and an end.' };
  if (Date.parse(endsAt) <= Date.parse(startsAt)) return { error: 'The end must be after the start.' };
  return { input: { user_id: form.userId, starts_at: startsAt, ends_at: endsAt } };
}

/** What the shifts list says of a turn given to someone else because its person is away. */
export function coverNote(shift: {
  covering_for?: { name: string; reason: string } | undefined;
}): string | null {
  return shift.covering_for ? `covers for ${shift.covering_for.name} (unavailable)` : null;
}
