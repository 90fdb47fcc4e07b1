import { upcomingShifts } from '@firebreak/domain/browser';
import type { Schedule } from '@firebreak/schema';

/**
 * The schedule picture's maths. Who is on call when comes from the domain's rotation rules (the same
 * code the API answers `on-call` with, so the picture and the pager agree, DST included); this only
 * places those shifts on a window of time as percentages.
 */

export interface Shift {
  name: string;
  layer: string;
  start: Date;
  end: Date;
}

export interface Segment {
  name: string;
  start: Date;
  end: Date;
  /** Percentages of the window, for CSS `left` and `width`. */
  left: number;
  width: number;
}

export function shiftsOf(schedule: Schedule, from: Date, count: number): Shift[] {
  const rotation = {
    timezone: schedule.timezone,
    layers: schedule.layers.map((layer) => ({ ...layer, rotation_start: new Date(layer.rotation_start) })),
  };
  return upcomingShifts(rotation, from, count).map((shift) => ({
    name: shift.participant.name,
    layer: shift.layer.name,
    start: shift.start,
    end: shift.end,
  }));
}

/** The parts of `shifts` inside [from, to), clipped to it. */
export function segmentsInWindow(shifts: readonly Shift[], from: Date, to: Date): Segment[] {
  const span = to.getTime() - from.getTime();
  if (span <= 0) return [];
  const segments: Segment[] = [];
  for (const shift of shifts) {
    const start = Math.max(shift.start.getTime(), from.getTime());
    const end = Math.min(shift.end.getTime(), to.getTime());
    if (end <= start) continue;
    segments.push({
      name: shift.name,
      start: new Date(start),
      end: new Date(end),
      left: ((start - from.getTime()) / span) * 100,
      width: ((end - start) / span) * 100,
    });
  }
  return segments;
}

/** A stable colour per person (white text passes AA on each). */
const palette = ['#0b5cad', '#6d3fb3', '#1a7041', '#a3291c', '#7a4a00', '#0f6b63', '#4b5563', '#9b2c6e'];
export function colourOf(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return palette[hash % palette.length]!;
}
