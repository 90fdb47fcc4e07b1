import { actionItems, type incidents } from '@firebreak/db';
import { type ActionItem, type ActionItemPage, AppError, type ListActionItemsQuery } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { requireIncident } from './incident';
import { presentActionItem } from './present';

/** `GET /api/v1/incidents/{id}/postmortem/action-items`: the incident's items, oldest first. */
export async function listIncidentActionItems(
  ctx: ServiceContext,
  ref: incidents.IncidentRef,
): Promise<ActionItem[]> {
  const incident = await requireIncident(ctx.sql, ref);
  return (await actionItems.listIncidentActionItems(ctx.sql, incident.id)).map(presentActionItem);
}

/**
 * `GET /api/v1/action-items` across incidents: overdue first (open, due before today, UTC), then by due
 * date, items without one last (docs/postmortems.md#action-items). `owner_id=me` needs `callerId`.
 */
export async function listActionItems(
  ctx: ServiceContext,
  query: ListActionItemsQuery,
  callerId: string | null,
): Promise<ActionItemPage> {
  const ownerId = query.owner_id === 'me' ? (callerId ?? undefined) : query.owner_id;
  if (query.owner_id === 'me' && !ownerId) return { items: [], next_cursor: null };
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  // The first page's day, for every page: "overdue" must not change under a reader paging across UTC
  // midnight, or an item that became overdue would move before the cursor and never be shown.
  const today = after?.today ?? ctx.now().toISOString().slice(0, 10);
  const rows = await actionItems.listActionItems(ctx.sql, {
    status: query.status,
    ownerId,
    today,
    after,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map(presentActionItem),
    next_cursor: rows.length > query.limit && last ? encodeCursor(last, today) : null,
  };
}

type Position = actionItems.ActionItemPosition & { today: string };

// The cursor is opaque to clients; inside it are the position of the page's last item and the day its
// rank was computed with.
function encodeCursor(
  row: { rank: number; due: string; created_at: Date; id: string },
  today: string,
): string {
  const position = { r: row.rank, d: row.due, c: row.created_at.toISOString(), i: row.id, t: today };
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every field checked as PostgreSQL will read it: a forged cursor is a 400, never a query error. */
function decodeCursor(cursor: string): Position {
  try {
    const p = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (
      typeof p.r === 'number' &&
      [0, 1, 2].includes(p.r) &&
      (p.d === 'infinity' || isDay(p.d)) &&
      isInstant(p.c) &&
      typeof p.i === 'string' &&
      uuid.test(p.i) &&
      isDay(p.t)
    ) {
      return {
        rank: p.r,
        due: p.d as string,
        createdAt: new Date(p.c as string),
        id: p.i,
        today: p.t as string,
      };
    }
  } catch {
    // fall through
  }
  throw new AppError('validation_failed', 'The request is not valid.', [
    { path: 'cursor', message: 'is not a cursor this API returned' },
  ]);
}

/** A calendar day (YYYY-MM-DD) in the years 1900 to 9999 that exists: 2026-02-30 does not. */
function isDay(value: unknown): boolean {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || value < '1900-01-01') return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** An instant as `toISOString` writes it, which is how the cursor was made. */
function isInstant(value: unknown): boolean {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value)) return false;
  const date = new Date(value);
  return !Number.isNaN(date.getTime()) && date.toISOString() === value;
}
