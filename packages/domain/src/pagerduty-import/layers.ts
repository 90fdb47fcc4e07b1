import {
  defaultRotationType,
  type PagerDutyRestriction,
  type PagerDutyScheduleLayer,
} from '@firebreak/schema';
import { onCallAt } from '../oncall';
import type { PlannedLayer } from '../oncall-import/types';
import { type Directory, resolveUser } from './users';

/**
 * One PagerDuty schedule layer → one layer (docs/import-pagerduty.md#what-is-imported-and-how). Turns start
 * at `rotation_virtual_start` and last `rotation_turn_length_seconds`, the users taking turns in their
 * order, which is exactly a layer here. A `start` later than `rotation_virtual_start` starts the layer at
 * the first hand-over on or after it: a layer here has nobody on call before its rotation start, so it
 * does not cover the time before its `start`, and its hand-overs stay where PagerDuty has them. What a
 * layer here cannot express is dropped with a note: restrictions (the layer is then on call around the
 * clock), an end date, the rest of the turn a `start` falls within. A layer whose `end` has passed is
 * left out. The schedule assigns `order_index`.
 */

export interface LayerContext {
  directory: Directory;
  now: Date;
  /** The schedule's zone, in which turns that line up with days hand over (see `oncall.ts`). */
  timezone: string;
}

export interface MappedLayer {
  /** Absent when the layer is not imported (its reason is among the notes). */
  layer?: Omit<PlannedLayer, 'orderIndex'>;
  /** Warning messages about this layer. */
  notes: string[];
}

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** `daily 09:00 for 8h`, `weekly from Monday 09:00 for 5d`: what the warning says was dropped. */
export function describeRestriction(restriction: PagerDutyRestriction): string {
  const time = restriction.start_time_of_day.slice(0, 5);
  const hours = Math.round((restriction.duration_seconds / 3600) * 10) / 10;
  if (restriction.type === 'weekly_restriction') {
    const day = DAYS[((restriction.start_day_of_week ?? 1) + 6) % 7] ?? 'Monday';
    return `weekly from ${day} ${time} for ${hours}h`;
  }
  return `daily ${time} for ${hours}h`;
}

function instant(text: string | null | undefined): Date | undefined {
  if (!text) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export function mapLayer(layer: PagerDutyScheduleLayer, name: string, context: LayerContext): MappedLayer {
  const label = `layer '${name}'`;
  const end = instant(layer.end);
  if (layer.end && end === undefined)
    return { notes: [`${label}: unreadable end ${layer.end}; not imported`] };
  if (end && end.getTime() <= context.now.getTime()) {
    return { notes: [`${label}: ended ${layer.end}; not imported`] };
  }
  const rotationStart = instant(layer.rotation_virtual_start);
  const seconds = layer.rotation_turn_length_seconds;
  if (rotationStart === undefined || !Number.isInteger(seconds) || seconds <= 0 || seconds > 366 * 86_400) {
    return { notes: [`${label}: no valid rotation start or turn length; not imported`] };
  }
  const notes: string[] = [];
  const dropped: string[] = [];
  const restrictions = layer.restrictions ?? [];
  if (restrictions.length > 0) {
    dropped.push(
      `restrictions (${restrictions.map(describeRestriction).join(', ')}) dropped, so the layer is on call around the clock`,
    );
  }
  if (end) dropped.push(`end ${layer.end} dropped`);
  const start = instant(layer.start);
  const first =
    start && start.getTime() > rotationStart.getTime()
      ? firstTurnFrom(start, rotationStart, seconds, context.timezone)
      : { at: rotationStart, turn: 0 };
  if (start && first.at.getTime() > start.getTime() && first.at.getTime() > context.now.getTime()) {
    dropped.push(
      `start ${layer.start} falls within a turn; on call from the next hand-over, ${first.at.toISOString()}`,
    );
  }
  if (dropped.length > 0) notes.push(`${label}: ${dropped.join('; ')}`);
  const people = layer.users.map(({ user }) => {
    const resolved = resolveUser(user, context.directory);
    if (resolved.note) notes.push(`${label}: ${resolved.note}`);
    return resolved.person;
  });
  // PagerDuty's turn `first.turn` is turn 0 here: whoever PagerDuty has on call then goes first.
  const shift = people.length > 0 ? first.turn % people.length : 0;
  return {
    layer: {
      name,
      rotationStart: first.at,
      shiftDurationSeconds: seconds,
      rotationType: defaultRotationType(seconds),
      participants: [...people.slice(shift), ...people.slice(0, shift)],
    },
    notes,
  };
}

/**
 * The rotation's first hand-over on or after `start`, and its turn number, counted as this service
 * counts turns (on the wall clock of `timezone` for turns that line up with days), so that the imported
 * layer hands over exactly when the rotation from `rotationStart` would.
 */
function firstTurnFrom(
  start: Date,
  rotationStart: Date,
  seconds: number,
  timezone: string,
): { at: Date; turn: number } {
  const layer = { order_index: 0, rotation_start: rotationStart, shift_duration_seconds: seconds };
  const running = onCallAt({ timezone, layers: [{ ...layer, participants: [null] }] }, start);
  if (!running) return { at: rotationStart, turn: 0 };
  return running.start.getTime() === start.getTime()
    ? { at: running.start, turn: running.turn }
    : { at: running.end, turn: running.turn + 1 };
}
