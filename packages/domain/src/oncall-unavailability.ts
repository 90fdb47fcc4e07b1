import { layerTurns, type RotationLayer, type RotationSchedule, shiftsBetween } from './oncall';

/**
 * Unavailability (docs/schedules.md#unavailability). A person marks a range in which they take no turn
 * in a schedule's layers. Wherever a layer's rotation gives the turn to someone unavailable at an
 * instant, it goes to the next participant in that layer's order who is available then; if nobody in
 * the layer is, the layer has nobody then and the layers below show through, as in a gap. Overrides
 * are applied on top, as always (`oncall-overrides.ts`). Pure: ranges and instants are parameters.
 */

export interface Unavailability {
  user_id: string;
  starts_at: Date;
  ends_at: Date;
}

/** Why a layer's turn went to someone other than the rotation's own pick. */
export interface CoveringFor {
  user_id: string;
  name: string;
  reason: 'unavailable';
}

interface Person {
  user_id: string | null;
  name: string;
}

type NamedLayer<P extends Person> = RotationLayer<P> & { name: string };

/** What the layers put on call at an instant once unavailability is applied. */
export interface LayerPick<P extends Person> {
  person: P;
  layer_name: string;
  covering_for?: CoveringFor;
}

/**
 * Whether `userId` is unavailable at `instant`: starts inclusive, ends exclusive, like shifts. A plain
 * scan, for a one-off question; the pickers below index the ranges first.
 */
export function unavailableAt(
  ranges: readonly Unavailability[],
  userId: string | null,
  instant: number,
): boolean {
  if (userId === null) return false;
  return ranges.some(
    (r) => r.user_id === userId && r.starts_at.getTime() <= instant && instant < r.ends_at.getTime(),
  );
}

/** Sorted, disjoint [start, end) spans: where they touch or overlap they are merged. */
type Spans = Array<[number, number]>;

function merge(spans: Spans): Spans {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  const merged: Spans = [];
  for (const [start, end] of sorted) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/**
 * Whether a span covers `instant`: a binary search for the last span starting at or before it, so a
 * schedule with many ranges costs a logarithm per question, not a scan.
 */
export function spansCover(spans: ReadonlyArray<readonly [number, number]>, instant: number): boolean {
  let low = 0;
  let high = spans.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (spans[middle]![0] <= instant) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found >= 0 && instant < spans[found]![1];
}

/**
 * Only the ranges of people who take part in the schedule's layers: anyone else's change nothing, so
 * they cost nothing either (no cuts, no lookups).
 */
export function participantRanges(
  schedule: RotationSchedule<RotationLayer<{ user_id: string | null }>>,
  ranges: readonly Unavailability[],
): Unavailability[] {
  const people = new Set<string>();
  for (const layer of schedule.layers) {
    for (const p of layer.participants) if (p.user_id !== null) people.add(p.user_id);
  }
  return ranges.filter((r) => people.has(r.user_id) && r.starts_at < r.ends_at);
}

/** Each person's ranges, merged and sorted, for `spansCover`. */
function byPerson(ranges: readonly Unavailability[]): Map<string, Spans> {
  const grouped = new Map<string, Spans>();
  for (const r of ranges) {
    const own = grouped.get(r.user_id) ?? [];
    own.push([r.starts_at.getTime(), r.ends_at.getTime()]);
    grouped.set(r.user_id, own);
  }
  for (const [user, spans] of grouped) grouped.set(user, merge(spans));
  return grouped;
}

/**
 * The layers' answer at an instant, unavailability applied. Prepared once (the layers' clocks), asked
 * at many instants. Without ranges it is exactly `onCallAt`'s participant.
 */
export function layerPicker<P extends Person>(
  schedule: RotationSchedule<NamedLayer<P>>,
  ranges: readonly Unavailability[],
): (at: Date) => LayerPick<P> | undefined {
  const turnsAt = layerTurns(schedule);
  const away = byPerson(participantRanges(schedule, ranges));
  const isAway = (userId: string | null, instant: number) => {
    const spans = userId === null ? undefined : away.get(userId);
    return spans !== undefined && spansCover(spans, instant);
  };
  return (at) => {
    const instant = at.getTime();
    for (const turn of turnsAt(at)) {
      const people = turn.layer.participants;
      for (let step = 0; step < people.length; step += 1) {
        const candidate = people[(turn.participant_index + step) % people.length] as P;
        if (isAway(candidate.user_id, instant)) continue;
        const due = people[turn.participant_index] as P;
        return {
          person: candidate,
          layer_name: turn.layer.name,
          ...(step > 0 && due.user_id !== null
            ? { covering_for: { user_id: due.user_id, name: due.name, reason: 'unavailable' as const } }
            : {}),
        };
      }
    }
    return undefined;
  };
}

/** The ranges overlapping [from, to), clipped to it and merged where they touch or overlap. */
export function unavailableSpans(
  ranges: readonly Unavailability[],
  from: number,
  to: number,
): Array<[number, number]> {
  return merge(
    ranges
      .map((r): [number, number] => [
        Math.max(from, r.starts_at.getTime()),
        Math.min(to, r.ends_at.getTime()),
      ])
      .filter(([start, end]) => start < end),
  );
}

/**
 * Every instant where the layers' answer may change because of unavailability (the caller keeps
 * those in its window): each range's ends, and inside the ranges every layer's own hand-overs (a lower layer may show through
 * there, so its turns count, not only the winning layer's). Each layer's turns are bounded by
 * `maxShifts` (TooManyShiftsError beyond).
 */
export function unavailabilityCuts(
  schedule: RotationSchedule<RotationLayer>,
  ranges: readonly Unavailability[],
  spans: ReadonlyArray<readonly [number, number]>,
  maxShifts: number,
): number[] {
  const cuts = ranges.flatMap((r) => [r.starts_at.getTime(), r.ends_at.getTime()]);
  for (const [start, end] of spans) {
    cuts.push(start, end);
    for (const layer of schedule.layers) {
      const single = { timezone: schedule.timezone, layers: [layer] };
      for (const turn of shiftsBetween(single, new Date(start), new Date(end), maxShifts)) {
        cuts.push(turn.start.getTime(), turn.end.getTime());
      }
    }
  }
  return cuts;
}

/**
 * Whether shifts (sorted, not overlapping, as `finalShifts` answers them) leave some instant of
 * [from, to) with nobody on call.
 */
export function leavesGap(
  shifts: ReadonlyArray<{ start: Date; end: Date }>,
  from: number,
  to: number,
): boolean {
  let covered = from;
  for (const shift of shifts) {
    if (shift.end.getTime() <= covered) continue;
    if (shift.start.getTime() > covered) return true;
    covered = shift.end.getTime();
    if (covered >= to) return false;
  }
  return covered < to;
}
