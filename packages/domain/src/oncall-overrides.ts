import { type RotationLayer, type RotationSchedule, shiftsBetween } from './oncall';
import {
  type CoveringFor,
  type LayerPick,
  layerPicker,
  participantRanges,
  spansCover,
  type Unavailability,
  unavailabilityCuts,
  unavailableSpans,
} from './oncall-unavailability';

/**
 * Overrides and final shifts (docs/schedules.md#overrides). An override puts one person on call for a
 * window, above every layer. With `replaces_user_id` it takes only that person's time inside the
 * window (where someone else is on call, or nobody, nothing changes); without, the whole window.
 *
 * Overlapping overrides apply in the order they were created (`created_at`, then `id`), each on top
 * of the result of those before it, so where two disagree the newest decides. A replacing override
 * sees who is on call after the older overrides: "Ben covers Ana" then "Carl covers Ben" leaves Carl.
 * The layers' answer they apply to already skips unavailable people (`oncall-unavailability.ts`); a
 * replacing override also takes the time of whoever covers for the person it replaces.
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
  /** For a layer shift given to the next participant because the rotation's own pick is unavailable. */
  covering_for?: CoveringFor;
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
  covering_for?: CoveringFor;
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
    // "Dev replaces Ana" still holds once Ana is unavailable: whoever covers for her then is who the
    // override takes the time from (docs/schedules.md#unavailability).
    if (
      replaces !== null &&
      current?.person.user_id !== replaces &&
      current?.covering_for?.user_id !== replaces
    ) {
      continue;
    }
    current = { person: override.person, source: 'override', override_id: override.id };
  }
  return current;
}

const layerPiece = <P extends OnCallPerson>(pick: LayerPick<P> | undefined): Piece<P> | undefined =>
  pick ? { ...pick, source: 'layer' } : undefined;

/** Who is on call at `at`, unavailability and overrides applied; undefined when nobody is. */
export function finalOnCallAt<P extends OnCallPerson>(
  schedule: RotationSchedule<NamedLayer<P>>,
  overrides: readonly ScheduleOverride<P>[],
  at: Date,
  unavailability: readonly Unavailability[] = [],
): Piece<P> | undefined {
  const base = layerPiece(layerPicker(schedule, unavailability)(at));
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
  a.override_id === b.override_id &&
  a.covering_for?.user_id === b.covering_for?.user_id;

/**
 * The final shifts in [from, to), clipped to it: layers (unavailable people skipped), then overrides
 * on top, cut at every boundary and merged again where the same person stays on call from the same
 * layer or override. Nobody on call is a gap, not a shift. Outside every unavailability range the
 * winning layer's turns decide, as `shiftsBetween` walks them; inside one, each piece asks the same
 * picker as `finalOnCallAt`, so the two always agree.
 */
export function finalShifts<P extends OnCallPerson>(
  schedule: RotationSchedule<NamedLayer<P>>,
  overrides: readonly ScheduleOverride<P>[],
  from: Date,
  to: Date,
  /** Beyond this many layer turns in the window: TooManyShiftsError. */
  maxShifts = Number.POSITIVE_INFINITY,
  unavailability: readonly Unavailability[] = [],
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
  // Ranges of people outside the layers change nothing: they add no cuts and no lookups.
  const away = participantRanges(schedule, unavailability);
  const spans = unavailableSpans(away, start, end);
  for (const cut of unavailabilityCuts(schedule, away, spans, maxShifts)) cuts.add(cut);
  const pick = layerPicker(schedule, away);
  const points = [...cuts].filter((t) => t >= start && t <= end).sort((a, b) => a - b);
  const shifts: FinalShift<P>[] = [];
  let layerIndex = 0;
  for (let i = 0; i + 1 < points.length; i += 1) {
    const [pieceStart, pieceEnd] = [points[i]!, points[i + 1]!];
    while (layerIndex < layerShifts.length && layerShifts[layerIndex]!.end.getTime() <= pieceStart) {
      layerIndex += 1;
    }
    const layerShift = layerShifts[layerIndex];
    const base = spansCover(spans, pieceStart)
      ? layerPiece(pick(new Date(pieceStart)))
      : layerShift && layerShift.start.getTime() <= pieceStart
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
