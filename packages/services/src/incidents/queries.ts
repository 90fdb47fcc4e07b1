import { incidents, timeline } from '@firebreak/db';
import { AppError, type Incident, type ListIncidentsQuery, type TimelineEntry } from '@firebreak/schema';
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

export async function getTimeline(ctx: ServiceContext, ref: incidents.IncidentRef): Promise<TimelineEntry[]> {
  const view = await incidents.findIncidentView(ctx.sql, ref);
  if (!view) throw incidentNotFound(ref);
  return (await timeline.listTimeline(ctx.sql, view.id)).map(presentTimelineEntry);
}
