import type { Queryable, schedules } from '@firebreak/db';
import { parseZonedDateTime } from '@firebreak/domain';
import { defaultRotationType, type LayerInput } from '@firebreak/schema';
import { type PersonReference, resolvePeople, throwIfInvalid } from './resolve-people';

/**
 * The layers of a create or update request as rows to write: participants resolved to users (an
 * unknown or ambiguous one is 400 at `layers[i].participants[j]`), offset-less rotation starts read
 * in the schedule's time zone, defaults filled in.
 */
export async function toNewLayers(
  sql: Queryable,
  layers: LayerInput[],
  timezone: string,
): Promise<schedules.NewLayer[]> {
  const references: PersonReference[] = layers.flatMap((layer, l) =>
    layer.participants.map((participant, p) => ({
      path: `layers[${l}].participants[${p}]`,
      userId: participant.user_id,
      name: participant.name,
    })),
  );
  const { people, issues } = await resolvePeople(sql, references);
  throwIfInvalid(issues);
  let next = 0;
  return layers.map((layer, index) => ({
    name: layer.name,
    orderIndex: layer.order_index ?? index,
    rotationStart: parseZonedDateTime(layer.rotation_start, timezone),
    shiftDurationSeconds: layer.shift_duration_seconds,
    rotationType: layer.rotation_type ?? defaultRotationType(layer.shift_duration_seconds),
    participants: layer.participants.map(() => people[next++]!),
  }));
}

export function scheduleConflicts(name: string | undefined): Record<string, string> {
  return { schedules_name_key: `A schedule named "${name ?? ''}" already exists.` };
}
