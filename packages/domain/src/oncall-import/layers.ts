import { isIanaTimeZone, type OnCallShiftItem, type RotationType } from '@firebreak/schema';
import { parseZonedDateTime } from '../wall-clock';
import type { PlannedLayer, PlannedPerson } from './types';
import type { People } from './users';

/**
 * One OnCall shift → one layer (docs/import-oncall.md#what-is-imported-and-how). The layer's place
 * (`order_index`) depends on the other shifts, so the schedule assigns it; this returns the `level`.
 */

const WEEK_SECONDS = 7 * 86_400;

export interface ShiftContext {
  /** The schedule's zone, already defaulted to UTC. */
  scheduleZone: string;
  people: People;
  now: Date;
}

export interface MappedShift {
  /** Absent when the shift is not imported (its reason is among the notes). */
  layer?: Omit<PlannedLayer, 'orderIndex'>;
  level: number;
  /** Warning messages about this layer. */
  notes: string[];
}

export function layerName(shift: OnCallShiftItem): string {
  return shift.name?.trim() || 'Layer';
}

/** The naive times are wall-clock time in the shift's zone, else the schedule's (else UTC). */
export function shiftZone(shift: OnCallShiftItem, scheduleZone: string): string {
  const zone = shift.time_zone?.trim();
  return zone && isIanaTimeZone(zone) ? zone : scheduleZone;
}

export function shiftDurationSeconds(shift: OnCallShiftItem): number {
  const seconds = Math.round(shift.duration ?? 0);
  return seconds > 0 ? seconds : WEEK_SECONDS;
}

/** `weekly` and `daily` are kept; anything else (hourly, monthly, a one-off) becomes `weekly`. */
export function rotationTypeOf(frequency: string | null | undefined): RotationType {
  return frequency === 'daily' ? 'daily' : 'weekly';
}

/**
 * OnCall user ids in rotation order: the `rolling_users` groups from `start_rotation_from_user_index`
 * on, flattened; else `users`.
 */
export function participantIds(shift: OnCallShiftItem): string[] {
  const groups = (shift.rolling_users ?? []).filter((group) => group.length > 0);
  if (groups.length === 0) return [...(shift.users ?? [])];
  const first = Math.max(0, shift.start_rotation_from_user_index ?? 0) % groups.length;
  return [...groups.slice(first), ...groups.slice(0, first)].flat();
}

/** What of the shift's recurrence a layer cannot express; a layer only repeats back to back. */
export function approximations(shift: OnCallShiftItem): string[] {
  const notes: string[] = [];
  if (shift.type === 'single_event') notes.push('a one-off shift now repeats');
  else if (shift.frequency !== 'daily' && shift.frequency !== 'weekly') {
    notes.push(`frequency ${shift.frequency ?? 'none'} dropped`);
  }
  if ((shift.interval ?? 1) > 1) notes.push(`interval ${shift.interval} dropped`);
  for (const key of ['by_day', 'by_month', 'by_monthday'] as const) {
    if ((shift[key]?.length ?? 0) > 0) notes.push(`${key} dropped`);
  }
  if (shift.until) notes.push(`end ${shift.until} dropped`);
  if ((shift.rolling_users ?? []).some((group) => group.length > 1)) {
    notes.push('users on call together now take turns');
  }
  return notes;
}

/** Resolved through the user map; an id it lacks stays as the participant's name. */
export function resolveParticipants(
  ids: readonly string[],
  people: People,
): { participants: PlannedPerson[]; unresolved: string[] } {
  const unresolved: string[] = [];
  const participants = ids.map((id) => {
    const person = people.get(id);
    if (person) return person;
    unresolved.push(id);
    return { email: null, name: id };
  });
  return { participants, unresolved: [...new Set(unresolved)] };
}

export function mapShift(shift: OnCallShiftItem, context: ShiftContext): MappedShift {
  const name = layerName(shift);
  const level = shift.level ?? 0;
  const zone = shiftZone(shift, context.scheduleZone);
  const start = shift.rotation_start || shift.start;
  const rotationStart = start ? parseOrUndefined(start, zone) : undefined;
  if (!rotationStart) return { level, notes: [`layer '${name}': no valid start time; not imported`] };
  const until = shift.until ? parseOrUndefined(shift.until, zone) : undefined;
  if (until && until.getTime() <= context.now.getTime()) {
    return { level, notes: [`layer '${name}': rotation ended ${shift.until}; not imported`] };
  }
  const rotationType = rotationTypeOf(shift.frequency);
  const { participants, unresolved } = resolveParticipants(participantIds(shift), context.people);
  const notes = unresolved.map(
    (id) => `layer '${name}': participant ${id} is not an imported user; kept as a name without an account`,
  );
  const approximated = approximations(shift);
  if (approximated.length > 0) {
    notes.unshift(`layer '${name}': ${approximated.join(', ')}, rotation approximated as ${rotationType}`);
  }
  return {
    layer: {
      name,
      rotationStart,
      shiftDurationSeconds: shiftDurationSeconds(shift),
      rotationType,
      participants,
    },
    level,
    notes,
  };
}

function parseOrUndefined(text: string, zone: string): Date | undefined {
  try {
    return parseZonedDateTime(text, zone);
  } catch {
    return undefined;
  }
}
