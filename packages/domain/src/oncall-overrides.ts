import { onCallAt, type RotationLayer, type RotationSchedule, shiftsBetween } from './oncall';

/**
 * Overrides and final shifts (docs/schedules.md#overrides). An override puts one person on call for a
 * window, above every layer. With `replaces_user_id` it takes only that person's time inside the
 * window (where someone else is on call, or nobody, nothing changes); without, the whole window.
 *
 * Overlapping overrides apply in the order they were created (`created_at`, then `id`), each on top
 * of the result of those before it, so where two disagree the newest decides. A replacing override
 * sees who is on call after the older overrides: "Ben covers Ana" then "Carl covers Ben" leaves Carl.
 * Pure: windows and instants are parameters.
 */

/** Someone a schedule can put on call: a layer's participant (maybe without an account) or a user. */
export interface OnCallPerson {
  user_id: string | null;
  name: string;
}

export interface ScheduleOverride<P extends OnCallPerson = OnCallPerson> {
  id: string;
  person: P;
  replaces_user_id: string | null;
  starts_at: Date;
  ends_at: Date;
  created_at: Date;
}

export interface FinalShift<P extends OnCallPerson = OnCallPerson> {
  person: P;
  start: Date;
  end: Date;
  source: 'layer' | 'override';
  /** The layer's name, for a layer shift. */
  layer_name?: string;
  /** The override's id, for an override shift. */
  override_id?: string;
}

type NamedLayer<P extends OnCallPerson> = RotationLayer<P> & { name: string };

/** Oldest first: the order they apply in. */
export function byCreation<O extends ScheduleOverride>(overrides: readonly O[]): O[] {
  return [...overrides].sort(
    (a, b) => a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

interface Piece<P extends OnCallPerson> {
  person: P;
  source: 'layer' | 'override';
  layer_name?: string;
  override_id?: string;
}

function applyAt<P extends OnCallPerson>(
  base: Piece<P> | undefined,
  ordered: readonly ScheduleOverride<P>[],
  instant: number,
): Piece<P> | undefined {
  let current = base;
  for (const override of ordered) {
    if (override.starts_at.getTime() > instant || override.ends_at.getTime() <= instant) continue;
    const replaces = override.replaces_user_id;
    if (replaces !== null && current?.person.user_id !== replaces) continue;
    current = { person: override.person, source: 'override', override_id: override.id };
  }
  return current;
}

/** Who is on call at `at`, overrides applied; undefined when nobody is. */
export function finalOnCallAt<P extends OnCallPerson>(
  schedule: RotationSchedule<NamedLayer<P>>,
  overrides: readonly ScheduleOverride<P>[],
  at: Date,
): Piece<P> | undefined {
  const shift = onCallAt(schedule, at);
  const base = shift
    ? { person: shift.participant as P, source: 'layer' as const, layer_name: shift.layer.name }
    : undefined;
  return applyAt(base, byCreation(overrides), at.getTime());
}

/** Whether two pieces are the same person; people without an account are told apart by name. */
export function samePerson(a: OnCallPerson, b: OnCallPerson): boolean {
  return a.user_id !== null || b.user_id !== null ? a.user_id === b.user_id : a.name === b.name;
}

const sameShift = (a: Piece<OnCallPerson>, b: Piece<OnCallPerson>) =>
  samePerson(a.person, b.person) &&
  a.source === b.source &&
  a.layer_name === b.layer_name &&
  a.override_id === b.override_id;

/**
 * The final shifts in [from, to), clipped to it: layers, then overrides on top, cut at every boundary
 * and merged again where the same person stays on call from the same layer or override. Nobody on call
 * is a gap, not a shift.
 */
export function finalShifts<P extends OnCallPerson>(
  schedule: RotationSchedule<NamedLayer<P>>,
  overrides: readonly ScheduleOverride<P>[],
  from: Date,
  to: Date,
  /** Beyond this many layer turns in the window: TooManyShiftsError. */
  maxShifts = Number.POSITIVE_INFINITY,
): FinalShift<P>[] {
  const start = from.getTime();
  const end = to.getTime();
  if (end <= start) return [];
  const layerShifts = shiftsBetween(schedule, from, to, maxShifts);
  const ordered = byCreation(overrides).filter(
    (o) => o.ends_at.getTime() > start && o.starts_at.getTime() < end,
  );
  const cuts = new Set<number>([start, end]);
  for (const shift of layerShifts) cuts.add(shift.start.getTime()).add(shift.end.getTime());
  for (const o of ordered) cuts.add(o.starts_at.getTime()).add(o.ends_at.getTime());
  const points = [...cuts].filter((t) => t >= start && t <= end).sort((a, b) => a - b);
  const shifts: FinalShift<P>[] = [];
  let layerIndex = 0;
  for (let i = 0; i + 1 < points.length; i += 1) {
    const [pieceStart, pieceEnd] = [points[i]!, points[i + 1]!];
    while (layerIndex < layerShifts.length && layerShifts[layerIndex]!.end.getTime() <= pieceStart) {
      layerIndex += 1;
    }
    const layerShift = layerShifts[layerIndex];
    const base =
      layerShift && layerShift.start.getTime() <= pieceStart
        ? { person: layerShift.participant as P, source: 'layer' as const, layer_name: layerShift.layer.name }
        : undefined;
    const piece = applyAt(base, ordered, pieceStart);
    if (!piece) continue;
    const last = shifts.at(-1);
    if (last && last.end.getTime() === pieceStart && sameShift(last, piece)) {
      last.end = new Date(pieceEnd);
    } else {
      shifts.push({ ...piece, start: new Date(pieceStart), end: new Date(pieceEnd) });
    }
  }
  return shifts;
}

/**
 * One person's continuous time on call, whatever layer or override it comes from: adjacent shifts of
 * the same person merged. What a person experiences as "my shift" (notices, the shift-start rule).
 */
export function continuousSpans<P extends OnCallPerson>(shifts: readonly FinalShift<P>[]): FinalShift<P>[] {
  const spans: FinalShift<P>[] = [];
  for (const shift of shifts) {
    const last = spans.at(-1);
    if (last && last.end.getTime() === shift.start.getTime() && samePerson(last.person, shift.person)) {
      last.end = shift.end;
    } else {
      spans.push({ ...shift });
    }
  }
  return spans;
}
