import { randomUUID } from 'node:crypto';
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
  /** Chosen by the caller when another write of the same transaction names the entry (an outbox row). */
  id?: string;
  incidentId: string;
  type: TimelineEntryType;
  actor: Actor;
  data: Record<string, unknown>;
  at: Date;
}

/** Entries are only ever inserted: the database refuses to change or delete them. */
export async function insertTimelineEntry(sql: Queryable, entry: InsertTimelineEntry): Promise<TimelineRow> {
  const [row] = await sql<TimelineRow[]>`
    insert into timeline_entries (id, incident_id, type, actor_type, actor_id, actor_name, data, created_at)
    values (${entry.id ?? randomUUID()}, ${entry.incidentId}, ${entry.type}, ${entry.actor.type}, ${entry.actor.id ?? null},
            ${entry.actor.name ?? null}, ${sql.json(entry.data as never)}, ${entry.at})
    returning *`;
  return row!;
}

/**
 * The insert of entries (no `returning`), sequenced in the order given. One jsonb parameter however
 * many entries, so the statement has one text (docs/decisions.md#one-text-per-statement).
 */
export function timelineInsertSql(
  sql: Queryable,
  entries: ReadonlyArray<InsertTimelineEntry & { id: string }>,
) {
  const rows = entries.map((entry) => ({
    id: entry.id,
    incident_id: entry.incidentId,
    type: entry.type,
    actor_type: entry.actor.type,
    actor_id: entry.actor.id ?? null,
    actor_name: entry.actor.name ?? null,
    data: entry.data,
    created_at: entry.at.toISOString(),
  }));
  return sql`
    insert into timeline_entries (id, incident_id, type, actor_type, actor_id, actor_name, data, created_at)
    select (r.value ->> 'id')::uuid, (r.value ->> 'incident_id')::uuid, r.value ->> 'type',
           r.value ->> 'actor_type', (r.value ->> 'actor_id')::uuid, r.value ->> 'actor_name',
           r.value -> 'data', (r.value ->> 'created_at')::timestamptz
    from jsonb_array_elements(${sql.json(rows as never)}) with ordinality as r(value, n)
    order by r.n`;
}

/** One page, oldest first: the entries after `afterSeq` (the cursor), at most `limit`. */
export async function listTimelinePage(
  sql: Queryable,
  incidentId: string,
  page: { afterSeq?: string | undefined; limit: number },
): Promise<TimelineRow[]> {
  return sql<TimelineRow[]>`
    select * from timeline_entries
    where incident_id = ${incidentId} ${page.afterSeq ? sql`and seq > ${page.afterSeq}` : sql``}
    order by seq
    limit ${page.limit}`;
}

/**
 * The first `head` and the last `tail` entries, oldest first, and how many lie between them (left
 * out). For readers that must stay bounded however long the incident runs (the AI prompts).
 */
export async function listTimelineEnds(
  sql: Queryable,
  incidentId: string,
  head: number,
  tail: number,
): Promise<{ entries: TimelineRow[]; omitted: number }> {
  const [count] = await sql<{ n: number }[]>`
    select count(*)::int as n from timeline_entries where incident_id = ${incidentId}`;
  const total = count!.n;
  if (total <= head + tail) return { entries: await listTimeline(sql, incidentId), omitted: 0 };
  const entries = await sql<TimelineRow[]>`
    (select * from timeline_entries where incident_id = ${incidentId} order by seq limit ${head})
    union all
    (select * from (select * from timeline_entries where incident_id = ${incidentId}
                    order by seq desc limit ${tail}) latest)
    order by seq`;
  return { entries, omitted: total - head - tail };
}

/** The latest status change to `to`: who made it (an incident is acknowledged or resolved once). */
export async function findLastStatusChange(
  sql: Queryable,
  incidentId: string,
  to: string,
): Promise<TimelineRow | undefined> {
  const [row] = await sql<TimelineRow[]>`
    select * from timeline_entries
    where incident_id = ${incidentId} and type = 'status_changed' and data->>'to' = ${to}
    order by seq desc
    limit 1`;
  return row;
}

/** Oldest first, in the order they were written. */
export async function listTimeline(sql: Queryable, incidentId: string): Promise<TimelineRow[]> {
  return sql<TimelineRow[]>`
    select * from timeline_entries where incident_id = ${incidentId} order by seq`;
}
