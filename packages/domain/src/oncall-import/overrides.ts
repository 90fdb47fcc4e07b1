import { MAX_SHIFT_WINDOW_DAYS, type OnCallShiftItem } from '@firebreak/schema';
import { parseZonedDateTime } from '../wall-clock';
import { participantIds, shiftZone } from './layers';
import type { PlannedOverride } from './types';
import type { People } from './users';

/**
 * One OnCall `override` shift → one override (docs/import-oncall.md#what-is-imported-and-how): its
 * person on call from `start` for `duration`, above every layer, whoever the layers name. OnCall may
 * put several people on call together in one override; an override here names one person, so the first
 * is kept and the others are warned about. The person must be a user here (imported or existing): an
 * override of a name without an account would page nobody. The API's own limits hold: an override
 * longer than it allows is left out with a warning, as the API would refuse it.
 */
export interface MappedOverride {
  override?: PlannedOverride;
  notes: string[];
}

export function mapOverride(
  shift: OnCallShiftItem,
  context: { scheduleZone: string; people: People },
): MappedOverride {
  const label = shift.name?.trim() || shift.id;
  const skipped = (why: string): MappedOverride => ({ notes: [`override '${label}': ${why}; not imported`] });
  const zone = shiftZone(shift, context.scheduleZone);
  let startsAt: Date;
  try {
    startsAt = parseZonedDateTime(shift.start ?? shift.rotation_start ?? '', zone);
  } catch {
    return skipped('no valid start time');
  }
  // Unlike a layer's turn, an override without a length has no default: it would cover a guess.
  const seconds = Math.round(shift.duration ?? 0);
  if (!(seconds > 0)) return skipped('no duration');
  if (seconds > MAX_SHIFT_WINDOW_DAYS * 86_400) {
    return skipped(`longer than ${MAX_SHIFT_WINDOW_DAYS} days, the most an override may last`);
  }
  const [first, ...others] = participantIds(shift);
  if (!first) return skipped('nobody on call');
  const person = context.people.get(first);
  if (!person?.email) return skipped(`user ${first} is not an imported user`);
  const notes = others.length
    ? [`override '${label}': only ${person.name} imported; here an override puts one person on call`]
    : [];
  return {
    override: {
      sourceId: shift.id,
      person: { ...person, email: person.email },
      startsAt,
      endsAt: new Date(startsAt.getTime() + seconds * 1000),
    },
    notes,
  };
}
