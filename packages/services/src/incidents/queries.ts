import { incidents, timeline } from '@firebreak/db';
import {
  AppError,
  type Incident,
  type IncidentItemsQuery,
  type ListIncidentsQuery,
  type TimelineEntry,
} from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { presentIncident, presentTimelineEntry } from './present';
import { incidentNotFound } from './ref';

export async function getIncident(ctx: ServiceContext, ref: incidents.IncidentRef): Promise<Incident> {
  const view = await incidents.findIncidentView(ctx.sql, ref);
  if (!view) throw incidentNotFound(ref);
  return presentIncident(view);
}

// The cursor is opaque to clients; inside it is the number of the last incident of the page.
function encodeCursor(number: number): string {
  return Buffer.from(JSON.stringify({ n: number })).toString('base64url');
}

function decodeCursor(cursor: string): number {
  try {
    const { n } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { n?: unknown };
    if (typeof n === 'number' && Number.isInteger(n) && n > 0) return n;
  } catch {
    // fall through
  }
  throw new AppError('validation_failed', 'The request is not valid.', [
    { path: 'cursor', message: 'is not a cursor this API returned' },
  ]);
}

/** Newest first; `next_cursor` is null on the last page. */
export async function listIncidents(
  ctx: ServiceContext,
  query: ListIncidentsQuery,
): Promise<{ incidents: Incident[]; next_cursor: string | null }> {
  const rows = await incidents.listIncidentViews(ctx.sql, {
    status: query.status,
    severity: query.severity,
    beforeNumber: query.cursor ? decodeCursor(query.cursor) : undefined,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    incidents: page.map(presentIncident),
    next_cursor: rows.length > query.limit && last ? encodeCursor(last.number) : null,
  };
}

// The timeline cursor holds the `seq` of the page's last entry; pages run oldest first.
function encodeTimelineCursor(seq: string): string {
  return Buffer.from(JSON.stringify({ s: seq })).toString('base64url');
}

function decodeTimelineCursor(cursor: string): string {
  try {
    const { s } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s?: unknown };
    if (typeof s === 'string' && /^[1-9]\d{0,18}$/.test(s)) return s;
  } catch {
    // fall through
  }
  throw new AppError('validation_failed', 'The request is not valid.', [
    { path: 'cursor', message: 'is not a cursor this API returned' },
  ]);
}

/**
 * `GET /api/v1/incidents/{id}/timeline`: one page, oldest first; `next_cursor` is null on the last
 * page. Pages, because a long incident gathers more entries than one answer should carry.
 */
export async function getTimelinePage(
  ctx: ServiceContext,
  ref: incidents.IncidentRef,
  query: IncidentItemsQuery,
): Promise<{ entries: TimelineEntry[]; next_cursor: string | null }> {
  const view = await incidents.findIncidentView(ctx.sql, ref);
  if (!view) throw incidentNotFound(ref);
  const rows = await timeline.listTimelinePage(ctx.sql, view.id, {
    afterSeq: query.cursor ? decodeTimelineCursor(query.cursor) : undefined,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    entries: page.map(presentTimelineEntry),
    next_cursor: rows.length > query.limit && last ? encodeTimelineCursor(String(last.seq)) : null,
  };
}

/** The whole timeline, for code that needs all of it (tests, internal readers). */
export async function getTimeline(ctx: ServiceContext, ref: incidents.IncidentRef): Promise<TimelineEntry[]> {
  const view = await incidents.findIncidentView(ctx.sql, ref);
  if (!view) throw incidentNotFound(ref);
  return (await timeline.listTimeline(ctx.sql, view.id)).map(presentTimelineEntry);
}
