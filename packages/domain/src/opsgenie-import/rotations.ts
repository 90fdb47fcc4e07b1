import { defaultRotationType, type OpsgenieRecipient, type OpsgenieRotation } from '@firebreak/schema';
import type { PlannedLayer, PlannedPerson } from '../oncall-import/types';
import { type People, resolveUser } from './users';

/**
 * One Opsgenie rotation → one layer (docs/import-opsgenie.md#what-is-imported-and-how). The layer's place
 * (`order_index`) depends on the schedule's other rotations, so the schedule assigns it.
 */

const UNIT_SECONDS: Record<string, number> = { hourly: 3_600, daily: 86_400, weekly: 7 * 86_400 };
// The longest turn a layer accepts (LayerInput).
const MAX_TURN_SECONDS = 366 * 86_400;

export interface RotationContext {
  people: People;
  /** Opsgenie team id → name, for participants of type team. */
  teamNames: ReadonlyMap<string, string>;
  now: Date;
}

export interface MappedRotation {
  /** Absent when the rotation is not imported (its reason is among the notes). */
  layer?: Omit<PlannedLayer, 'orderIndex'>;
  /** Warning messages about this rotation. */
  notes: string[];
}

export function rotationName(rotation: OpsgenieRotation, index: number): string {
  return rotation.name?.trim() || `Rotation ${index + 1}`;
}

/**
 * A turn is `length` (default 1) hours, days or weeks. Any other type (the UI's "custom" is saved as one
 * of those three, but an API may say otherwise) is read as weeks, with a note.
 */
export function turnSeconds(rotation: OpsgenieRotation): { seconds: number; note?: string } {
  const length = Math.max(1, rotation.length ?? 1);
  const unit = UNIT_SECONDS[rotation.type.trim().toLowerCase()];
  const seconds = Math.min((unit ?? UNIT_SECONDS.weekly!) * length, MAX_TURN_SECONDS);
  if (unit === undefined) {
    return { seconds, note: `rotation type "${rotation.type}" read as ${length} week(s) per turn` };
  }
  return { seconds };
}

/**
 * Participants in turn order. Users resolve to people; a team, an escalation or `none` cannot take a
 * turn here, so each keeps its place as a name without an account (nobody is paged in that turn), so
 * that the others' turns stay where Opsgenie has them.
 */
export function mapParticipants(
  participants: readonly OpsgenieRecipient[],
  context: Pick<RotationContext, 'people' | 'teamNames'>,
): { participants: PlannedPerson[]; notes: string[] } {
  const notes = new Set<string>();
  const mapped = participants.map((participant): PlannedPerson => {
    switch (participant.type) {
      case 'user': {
        const { person, unresolved } = resolveUser(participant, context.people);
        if (unresolved) {
          notes.add(
            `participant ${person.name} is not an imported user (deleted in Opsgenie, or skipped); kept as a name without an account`,
          );
        }
        return person;
      }
      case 'team': {
        const name =
          participant.name?.trim() ||
          (participant.id ? context.teamNames.get(participant.id) : undefined) ||
          participant.id ||
          'team';
        notes.add(
          `team ${name} takes a turn (its members on call together in Opsgenie); kept as the name "team ${name}" without an account: put a person in its place`,
        );
        return { email: null, name: `team ${name}` };
      }
      case 'escalation': {
        const name = participant.name?.trim() || participant.id || 'escalation';
        notes.add(
          `escalation ${name} takes a turn; kept as the name "escalation ${name}" without an account: put a person in its place`,
        );
        return { email: null, name: `escalation ${name}` };
      }
      default:
        notes.add('a turn of nobody ("none") kept as the name "nobody" without an account');
        return { email: null, name: 'nobody' };
    }
  });
  return { participants: mapped, notes: [...notes] };
}

export function mapRotation(
  rotation: OpsgenieRotation,
  index: number,
  context: RotationContext,
): MappedRotation {
  const name = rotationName(rotation, index);
  const label = (message: string) => `rotation '${name}': ${message}`;
  const rotationStart = new Date(rotation.startDate);
  if (Number.isNaN(rotationStart.getTime())) {
    return { notes: [label(`start "${rotation.startDate}" is not a time; not imported`)] };
  }
  const notes: string[] = [];
  if (rotation.endDate) {
    const end = new Date(rotation.endDate);
    if (!Number.isNaN(end.getTime()) && end.getTime() <= context.now.getTime()) {
      return { notes: [label(`ended ${rotation.endDate}; not imported`)] };
    }
    notes.push(label(`end ${rotation.endDate} dropped: the layer goes on until changed`));
  }
  const turn = turnSeconds(rotation);
  if (turn.note) notes.push(label(turn.note));
  if (rotation.timeRestriction) {
    const kind = rotation.timeRestriction.type ?? 'time';
    notes.push(label(`${kind} restriction dropped: the layer is on call around the clock`));
  }
  const { participants, notes: participantNotes } = mapParticipants(rotation.participants ?? [], context);
  for (const note of participantNotes) notes.push(label(note));
  if (participants.length === 0) notes.push(label('no participants; the layer has nobody on call'));
  return {
    layer: {
      name,
      rotationStart,
      shiftDurationSeconds: turn.seconds,
      rotationType: defaultRotationType(turn.seconds),
      participants,
    },
    notes,
  };
}
