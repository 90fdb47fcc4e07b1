import type { IANAZone } from 'luxon';
import { instantOfWall, timeZone, wallOf } from './wall-clock';

/**
 * Who is on call in a schedule (docs/api.md#on-call). A layer's participants take turns of
 * `shift_duration_seconds` from `rotation_start`, in list order, round and round. Where layers overlap,
 * the highest `order_index` with someone on call wins; a layer has nobody before its `rotation_start`
 * or without participants. Pure: the instant is a parameter.
 *
 * Time zones: a rotation whose turns line up with days — whole days (daily, weekly, fortnightly) or an
 * even split of a day (12 h, 8 h, 6 h…) — hands over at the same wall-clock times in the schedule's zone
 * all year, so the turn that spans a DST change is an hour shorter or longer. People plan "09:00 every
 * Monday" or "day shift 09:00–21:00", not "every 604 800 seconds". Any other length (36 h, 7 h) has
 * no wall-clock time to keep anyway, and runs on absolute seconds so every turn is the same length.
 * A hand-over at a wall time the clock skips happens when it jumps; at a repeated one, the first time.
 * `rotation_type` does not enter the maths: it is how the rotation is described to people.
 */

export interface RotationLayer<P = unknown> {
  order_index: number;
  rotation_start: Date;
  shift_duration_seconds: number;
  /** In rotation order; the same participant may appear more than once. */
  participants: readonly P[];
}

export interface RotationSchedule<L extends RotationLayer = RotationLayer> {
  /** IANA zone name. */
  timezone: string;
  layers: readonly L[];
}

export type ParticipantOf<L extends RotationLayer> = L['participants'][number];

export interface OnCallShift<L extends RotationLayer = RotationLayer> {
  layer: L;
  participant: ParticipantOf<L>;
  /** Position of the participant in the layer's list. */
  participant_index: number;
  /** Turn number in the layer: 0 from `rotation_start`. */
  turn: number;
  start: Date;
  /** When someone else takes over: the layer's next turn, or a higher layer starting. */
  end: Date;
}

const DAY_SECONDS = 86_400;

/** Whether turns of this length are counted on the wall clock (see above). */
export function followsWallClock(shiftDurationSeconds: number): boolean {
  return shiftDurationSeconds % DAY_SECONDS === 0 || DAY_SECONDS % shiftDurationSeconds === 0;
}

/** Start of each turn; non-decreasing in `turn`, so the turn at an instant is found by stepping. */
interface LayerClock {
  rotationStart: number;
  startOf(turn: number): number;
  /** A turn number near the one at `instant`. */
  estimate(instant: number): number;
}

function clockOf(zone: IANAZone, layer: RotationLayer): LayerClock {
  const rotationStart = layer.rotation_start.getTime();
  const step = layer.shift_duration_seconds * 1000;
  if (!Number.isInteger(layer.shift_duration_seconds) || layer.shift_duration_seconds <= 0) {
    throw new RangeError(
      `shift_duration_seconds must be a positive integer, not ${layer.shift_duration_seconds}`,
    );
  }
  if (!followsWallClock(layer.shift_duration_seconds)) {
    return {
      rotationStart,
      startOf: (turn) => rotationStart + turn * step,
      estimate: (instant) => Math.floor((instant - rotationStart) / step),
    };
  }
  const startWall = wallOf(zone, rotationStart);
  return {
    rotationStart,
    // Clamped to the rotation start in case it was the second occurrence of a repeated wall time.
    startOf: (turn) =>
      turn === 0 ? rotationStart : Math.max(rotationStart, instantOfWall(zone, startWall + turn * step)),
    estimate: (instant) => Math.floor((wallOf(zone, instant) - startWall) / step),
  };
}

/** The turn running at `instant`: the last one started at or before it. */
function turnAt(
  clock: LayerClock,
  instant: number,
): { turn: number; start: number; end: number } | undefined {
  if (instant < clock.rotationStart) return undefined;
  let turn = Math.max(0, clock.estimate(instant));
  while (turn > 0 && clock.startOf(turn) > instant) turn -= 1;
  while (clock.startOf(turn + 1) <= instant) turn += 1;
  return { turn, start: clock.startOf(turn), end: clock.startOf(turn + 1) };
}

interface PreparedLayer<L extends RotationLayer> {
  layer: L;
  clock: LayerClock;
}

/** Staffed layers, highest precedence first; of equal order_index the one listed later wins. */
function prepare<L extends RotationLayer>(schedule: RotationSchedule<L>): PreparedLayer<L>[] {
  const zone = timeZone(schedule.timezone);
  return schedule.layers
    .map((layer, index) => ({ layer, index }))
    .filter(({ layer }) => layer.participants.length > 0)
    .sort((a, b) => b.layer.order_index - a.layer.order_index || b.index - a.index)
    .map(({ layer }) => ({ layer, clock: clockOf(zone, layer) }));
}

function shiftAt<L extends RotationLayer>(
  prepared: PreparedLayer<L>[],
  instant: number,
): OnCallShift<L> | undefined {
  for (const [rank, { layer, clock }] of prepared.entries()) {
    const current = turnAt(clock, instant);
    if (!current) continue;
    // Every layer above this one has not started yet (else it would have won); the first to start
    // cuts this turn short.
    const takeover = Math.min(...prepared.slice(0, rank).map((higher) => higher.clock.rotationStart));
    const index = current.turn % layer.participants.length;
    return {
      layer,
      participant: layer.participants[index] as ParticipantOf<L>,
      participant_index: index,
      turn: current.turn,
      start: new Date(current.start),
      end: new Date(Math.min(current.end, takeover)),
    };
  }
  return undefined;
}

/** Who is on call at `at`, with the turn they are in; undefined when nobody is. */
export function onCallAt<L extends RotationLayer>(
  schedule: RotationSchedule<L>,
  at: Date,
): OnCallShift<L> | undefined {
  return shiftAt(prepare(schedule), at.getTime());
}

/** A layer's turn, uncut by the layers above it. */
export interface LayerTurn<L extends RotationLayer = RotationLayer> {
  layer: L;
  /** Whose turn the rotation says it is: the position in the layer's list. */
  participant_index: number;
  turn: number;
  start: Date;
  end: Date;
}

/**
 * The turn running at an instant in every staffed layer, highest precedence first: what each layer
 * offers when the ones above have nobody to give (docs/schedules.md#unavailability). The first one's
 * participant is `onCallAt`'s answer. Prepared once, asked at many instants.
 */
export function layerTurns<L extends RotationLayer>(
  schedule: RotationSchedule<L>,
): (at: Date) => LayerTurn<L>[] {
  const prepared = prepare(schedule);
  return (at) =>
    prepared.flatMap(({ layer, clock }) => {
      const current = turnAt(clock, at.getTime());
      if (!current) return [];
      const participant_index = current.turn % layer.participants.length;
      return [
        {
          layer,
          participant_index,
          turn: current.turn,
          start: new Date(current.start),
          end: new Date(current.end),
        },
      ];
    });
}

/**
 * The next `count` shifts from `from` on, the one running at `from` first (it may have started before).
 * Times when nobody is on call are gaps between shifts, not shifts.
 */
export function upcomingShifts<L extends RotationLayer>(
  schedule: RotationSchedule<L>,
  from: Date,
  count: number,
): OnCallShift<L>[] {
  return walkShifts(schedule, from, (shifts) => shifts.length < count);
}

/** A window holding more turns than the caller allows (a one-minute rotation over months, say). */
export class TooManyShiftsError extends RangeError {
  constructor(readonly limit: number) {
    super(`more than ${limit} shifts in the window`);
    this.name = 'TooManyShiftsError';
  }
}

/**
 * The shifts running at some time in [from, to): the first may start before `from`, the last end after
 * `to`. Throws TooManyShiftsError beyond `maxShifts`, so that a window cannot ask for unbounded work.
 */
export function shiftsBetween<L extends RotationLayer>(
  schedule: RotationSchedule<L>,
  from: Date,
  to: Date,
  maxShifts = Number.POSITIVE_INFINITY,
): OnCallShift<L>[] {
  const end = to.getTime();
  return walkShifts(schedule, from, (shifts, instant) => {
    if (shifts.length > maxShifts) throw new TooManyShiftsError(maxShifts);
    return instant < end;
  });
}

function walkShifts<L extends RotationLayer>(
  schedule: RotationSchedule<L>,
  from: Date,
  more: (shifts: readonly OnCallShift<L>[], instant: number) => boolean,
): OnCallShift<L>[] {
  const prepared = prepare(schedule);
  const shifts: OnCallShift<L>[] = [];
  let instant = from.getTime();
  while (more(shifts, instant)) {
    const shift = shiftAt(prepared, instant);
    if (shift) {
      shifts.push(shift);
      instant = shift.end.getTime();
      continue;
    }
    const starts = prepared.map((p) => p.clock.rotationStart).filter((start) => start > instant);
    if (starts.length === 0) break;
    instant = Math.min(...starts);
  }
  return shifts;
}

export { isValidTimeZone, parseZonedDateTime } from './wall-clock';
