import type { Queryable } from './client';

// The audit log (migration 0014): append-only, so this module only inserts and reads.

export type AuditActorType = 'user' | 'api_key' | 'system';

export interface AuditRow {
  id: string;
  seq: string;
  at: Date;
  actor_type: AuditActorType;
  actor_id: string | null;
  actor_name: string | null;
  entity_type: string;
  entity_id: string | null;
  action: string;
  before: unknown;
  after: unknown;
  request_id: string | null;
}

export interface NewAuditRow {
  at: Date;
  actorType: AuditActorType;
  actorId: string | null;
  actorName: string | null;
  entityType: string;
  entityId: string | null;
  action: string;
  before: unknown;
  after: unknown;
  requestId: string | null;
}

export async function insertAuditRow(sql: Queryable, row: NewAuditRow): Promise<void> {
  await sql`
    insert into audit_log (at, actor_type, actor_id, actor_name, entity_type, entity_id, action,
                           before, after, request_id)
    values (${row.at}, ${row.actorType}, ${row.actorId}, ${row.actorName}, ${row.entityType},
            ${row.entityId}, ${row.action},
            ${row.before === null ? null : sql.json(row.before as never)},
            ${row.after === null ? null : sql.json(row.after as never)}, ${row.requestId})`;
}

export interface AuditFilter {
  from?: Date | undefined;
  to?: Date | undefined;
  /** A user or API key id, or `system` for changes nobody asked for through the API. */
  actor?: string | undefined;
  entityType?: string | undefined;
  entityId?: string | undefined;
  /** Only rows older than this `seq` (the cursor: the list is newest first). */
  beforeSeq?: bigint | undefined;
  limit: number;
}

export async function listAuditRows(sql: Queryable, filter: AuditFilter): Promise<AuditRow[]> {
  return sql<AuditRow[]>`
    select * from audit_log
    where true
      ${filter.from ? sql`and at >= ${filter.from}` : sql``}
      ${filter.to ? sql`and at < ${filter.to}` : sql``}
      ${
        filter.actor === 'system'
          ? sql`and actor_type = 'system'`
          : filter.actor
            ? sql`and actor_id = ${filter.actor}`
            : sql``
      }
      ${filter.entityType ? sql`and entity_type = ${filter.entityType}` : sql``}
      ${filter.entityId ? sql`and entity_id = ${filter.entityId}` : sql``}
      ${filter.beforeSeq !== undefined ? sql`and seq < ${filter.beforeSeq.toString()}` : sql``}
    order by seq desc
    limit ${filter.limit}`;
}
