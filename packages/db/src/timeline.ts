import type { Actor, TimelineEntryType } from '@firebreak/schema';
import type { Queryable } from './client';

export interface TimelineRow {
  id: string;
  seq: string;
  incident_id: string;
  type: TimelineEntryType;
  actor_type: Actor['type'];
  actor_id: string | null;
  actor_name: string | null;
  data: Record<string, unknown>;
  created_at: Date;
}

export interface InsertTimelineEntry {
  incidentId: string;
  type: TimelineEntryType;
  actor: Actor;
  data: Record<string, unknown>;
  at: Date;
}

/** Entries are only ever inserted: the database refuses to change or delete them. */
export async function insertTimelineEntry(sql: Queryable, entry: InsertTimelineEntry): Promise<TimelineRow> {
  const [row] = await sql<TimelineRow[]>`
    insert into timeline_entries (incident_id, type, actor_type, actor_id, actor_name, data, created_at)
    values (${entry.incidentId}, ${entry.type}, ${entry.actor.type}, ${entry.actor.id ?? null},
            ${entry.actor.name ?? null}, ${sql.json(entry.data as never)}, ${entry.at})
    returning *`;
  return row!;
}

/** Oldest first, in the order they were written. */
export async function listTimeline(sql: Queryable, incidentId: string): Promise<TimelineRow[]> {
  return sql<TimelineRow[]>`
    select * from timeline_entries where incident_id = ${incidentId} order by seq`;
}
