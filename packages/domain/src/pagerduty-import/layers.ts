import {
  defaultRotationType,
  type PagerDutyRestriction,
  type PagerDutyScheduleLayer,
} from '@firebreak/schema';
import type { PlannedLayer } from '../oncall-import/types';
import { type Directory, resolveUser } from './users';

/**
 * One PagerDuty schedule layer → one layer (docs/import-pagerduty.md#what-is-imported-and-how). Turns start
 * at `rotation_virtual_start` and last `rotation_turn_length_seconds`, the users taking turns in their
 * order, which is exactly a layer here. What a layer here cannot express is dropped with a note:
 * restrictions (the layer is then on call around the clock), an end date, a start later than the
 * rotation's. A layer whose `end` has passed is left out. The schedule assigns `order_index`.
 */

export interface LayerContext {
  directory: Directory;
  now: Date;
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
  if (rotationStart === undefined || !(seconds > 0) || seconds > 366 * 86_400) {
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
  if (start && start.getTime() > context.now.getTime() && start.getTime() > rotationStart.getTime()) {
    dropped.push(`start ${layer.start} dropped (on call from the rotation's start)`);
  }
  if (dropped.length > 0) notes.push(`${label}: ${dropped.join('; ')}`);
  const participants = layer.users.map(({ user }) => {
    const resolved = resolveUser(user, context.directory);
    if (resolved.note) notes.push(`${label}: ${resolved.note}`);
    return resolved.person;
  });
  return {
    layer: {
      name,
      rotationStart,
      shiftDurationSeconds: seconds,
      rotationType: defaultRotationType(seconds),
      participants,
    },
    notes,
  };
}
