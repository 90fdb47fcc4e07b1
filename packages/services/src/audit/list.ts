import { auditLog } from '@firebreak/db';
import { AppError, type AuditEntry, type AuditLogPage, type AuditLogQuery } from '@firebreak/schema';
import type { ServiceContext } from '../context';

// The cursor is opaque to clients; inside it is the `seq` of the last row of the page (a bigint, kept as
// a string so no precision is lost on the way).
function encodeCursor(seq: string): string {
  return Buffer.from(JSON.stringify({ s: seq })).toString('base64url');
}

function decodeCursor(cursor: string): bigint {
  try {
    const { s } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s?: unknown };
    if (typeof s === 'string' && /^[1-9]\d{0,18}$/.test(s)) return BigInt(s);
  } catch {
    // fall through
  }
  throw new AppError('validation_failed', 'The request is not valid.', [
    { path: 'cursor', message: 'is not a cursor this API returned' },
  ]);
}

function present(row: auditLog.AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
    entity_type: row.entity_type,
    entity_id: row.entity_id,
    action: row.action,
    before: row.before,
    after: row.after,
    request_id: row.request_id,
  };
}

/** `GET /api/v1/audit-log` (admin): newest first; `next_cursor` is null on the last page. */
export async function listAuditLog(ctx: ServiceContext, query: AuditLogQuery): Promise<AuditLogPage> {
  const rows = await auditLog.listAuditRows(ctx.sql, {
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
    actor: query.actor,
    entityType: query.entity,
    entityId: query.entity_id,
    beforeSeq: query.cursor ? decodeCursor(query.cursor) : undefined,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    entries: page.map(present),
    next_cursor: rows.length > query.limit && last ? encodeCursor(String(last.seq)) : null,
  };
}
