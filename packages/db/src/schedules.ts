import type { RotationType } from '@firebreak/schema';
import type { Queryable } from './client';
import { groupBy } from './group-by';

/**
 * The schedule aggregate: a schedule, its layers and their participants. Layers are written whole
 * (delete and insert) because they are edited as a list and have no identity of their own.
 */

export interface ScheduleRow {
  id: string;
  name: string;
  timezone: string;
  created_at: Date;
  updated_at: Date;
}

export interface ParticipantRow {
  user_id: string | null;
  /** The linked user's current name, else the name kept on the row. */
  name: string;
}

export interface LayerRecord {
  name: string;
  order_index: number;
  rotation_start: Date;
  shift_duration_seconds: number;
  rotation_type: RotationType;
  participants: ParticipantRow[];
}

export interface ScheduleRecord extends ScheduleRow {
  /** Lowest order_index first; participants in rotation order. */
  layers: LayerRecord[];
}

export interface NewLayer {
  name: string;
  orderIndex: number;
  rotationStart: Date;
  shiftDurationSeconds: number;
  rotationType: RotationType;
  participants: Array<{ userId: string | null; name: string }>;
}

export async function insertSchedule(
  sql: Queryable,
  schedule: { name: string; timezone: string; at: Date },
): Promise<ScheduleRow> {
  const [row] = await sql<ScheduleRow[]>`
    insert into schedules (name, timezone, created_at, updated_at)
    values (${schedule.name}, ${schedule.timezone}, ${schedule.at}, ${schedule.at})
    returning *`;
  return row!;
}

/** Locks the schedule for the rest of the transaction, so concurrent edits of its layers queue up. */
export async function lockSchedule(sql: Queryable, id: string): Promise<ScheduleRow | undefined> {
  const [row] = await sql<ScheduleRow[]>`select * from schedules where id = ${id} for update`;
  return row;
}

export async function updateSchedule(
  sql: Queryable,
  id: string,
  changes: { name?: string; timezone?: string },
  at: Date,
): Promise<ScheduleRow | undefined> {
  const [row] = await sql<ScheduleRow[]>`
    update schedules set ${sql({ ...changes, updated_at: at } as Record<string, unknown>)}
    where id = ${id}
    returning *`;
  return row;
}

export async function replaceLayers(sql: Queryable, scheduleId: string, layers: NewLayer[]): Promise<void> {
  await sql`delete from schedule_layers where schedule_id = ${scheduleId}`;
  if (layers.length === 0) return;
  const inserted = await sql<{ id: string; order_index: number }[]>`
    insert into schedule_layers ${sql(
      layers.map((layer) => ({
        schedule_id: scheduleId,
        name: layer.name,
        order_index: layer.orderIndex,
        rotation_start: layer.rotationStart,
        shift_duration_seconds: layer.shiftDurationSeconds,
        rotation_type: layer.rotationType,
      })) as never,
    )}
    returning id, order_index`;
  // order_index is unique within a schedule, so it tells which id each layer got.
  const idOf = new Map(inserted.map((row) => [row.order_index, row.id]));
  const participants = layers.flatMap((layer) =>
    layer.participants.map((participant, position) => ({
      layer_id: idOf.get(layer.orderIndex)!,
      position,
      user_id: participant.userId,
      name: participant.name,
    })),
  );
  if (participants.length > 0) await sql`insert into schedule_participants ${sql(participants as never)}`;
}

/** Schedules with their layers and participants, by name, in three queries whatever their number. */
export async function findSchedules(
  sql: Queryable,
  filter: { ids?: string[] } = {},
): Promise<ScheduleRecord[]> {
  const schedules = await sql<ScheduleRow[]>`
    select * from schedules
    ${filter.ids ? sql`where id = any(${filter.ids}::uuid[])` : sql``}
    order by name, id`;
  if (schedules.length === 0) return [];
  const ids = schedules.map((schedule) => schedule.id);
  const layers = await sql<(Omit<LayerRecord, 'participants'> & { id: string; schedule_id: string })[]>`
    select id, schedule_id, name, order_index, rotation_start, shift_duration_seconds, rotation_type
    from schedule_layers where schedule_id = any(${ids}::uuid[])
    order by schedule_id, order_index`;
  const participants = await sql<(ParticipantRow & { layer_id: string })[]>`
    select p.layer_id, p.user_id, coalesce(u.name, p.name) as name
    from schedule_participants p
    join schedule_layers l on l.id = p.layer_id
    left join users u on u.id = p.user_id
    where l.schedule_id = any(${ids}::uuid[])
    order by p.layer_id, p.position`;
  const participantsOf = groupBy(participants, (row) => row.layer_id);
  const layersOf = groupBy(layers, (row) => row.schedule_id);
  return schedules.map((schedule) => ({
    ...schedule,
    layers: (layersOf.get(schedule.id) ?? []).map(({ id, schedule_id: _, ...layer }) => ({
      ...layer,
      participants: (participantsOf.get(id) ?? []).map(({ user_id, name }) => ({ user_id, name })),
    })),
  }));
}

export async function findSchedule(sql: Queryable, id: string): Promise<ScheduleRecord | undefined> {
  const [schedule] = await findSchedules(sql, { ids: [id] });
  return schedule;
}

/** Names of the escalation policies with a tier that pages this schedule (they block its deletion). */
export async function policiesUsingSchedule(sql: Queryable, scheduleId: string): Promise<string[]> {
  const rows = await sql<{ name: string }[]>`
    select distinct p.name from escalation_tiers t join escalation_policies p on p.id = t.policy_id
    where t.schedule_id = ${scheduleId} order by p.name`;
  return rows.map((row) => row.name);
}

export async function deleteSchedule(sql: Queryable, id: string): Promise<boolean> {
  const result = await sql`delete from schedules where id = ${id}`;
  return result.count > 0;
}

/**
 * Of these ids, the schedules that exist, locked against deletion until the transaction ends (an
 * escalation tier is about to reference them).
 */
export async function existingScheduleIds(sql: Queryable, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await sql<{ id: string }[]>`
    select id from schedules where id = any(${ids}::uuid[]) for key share`;
  return new Set(rows.map((row) => row.id));
}

/**
 * Before a user is deleted: copies their current name onto their participant rows, so the rotation
 * keeps showing who it was once the foreign key sets user_id to null.
 */
export async function keepParticipantNames(sql: Queryable, userId: string): Promise<void> {
  await sql`
    update schedule_participants p set name = u.name
    from users u where u.id = ${userId} and p.user_id = u.id`;
}
