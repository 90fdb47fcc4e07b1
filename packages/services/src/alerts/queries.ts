import { alerts, incidents } from '@firebreak/db';
import { type Alert, type AlertStatus, AppError, type IncidentItemsQuery } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { incidentNotFound } from '../incidents/ref';
import { presentAlert } from './present';

export interface ListAlertsQuery {
  status?: AlertStatus | undefined;
  source?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

// Opaque to clients: the position (received_at, id) of the last alert of the page.
function encodeCursor(row: alerts.AlertRow): string {
  return Buffer.from(JSON.stringify({ r: row.received_at.toISOString(), i: row.id })).toString('base64url');
}

function decodeCursor(cursor: string): { receivedAt: Date; id: string } {
  try {
    const { r, i } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      r?: unknown;
      i?: unknown;
    };
    const receivedAt = new Date(String(r));
    if (typeof i === 'string' && /^[0-9a-f-]{36}$/.test(i) && !Number.isNaN(receivedAt.getTime())) {
      return { receivedAt, id: i };
    }
  } catch {
    // fall through
  }
  throw new AppError('validation_failed', 'The request is not valid.', [
    { path: 'cursor', message: 'is not a cursor this API returned' },
  ]);
}

// An incident's alerts page on the id alone (alerts.listAlertsOfIncidentPage says why).
function encodeIdCursor(row: alerts.AlertRow): string {
  return Buffer.from(JSON.stringify({ i: row.id })).toString('base64url');
}

function decodeIdCursor(cursor: string): string {
  try {
    const { i } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { i?: unknown };
    if (typeof i === 'string' && /^[0-9a-f-]{36}$/.test(i)) return i;
  } catch {
    // fall through
  }
  throw new AppError('validation_failed', 'The request is not valid.', [
    { path: 'cursor', message: 'is not a cursor this API returned' },
  ]);
}

/** `GET /api/v1/alerts`: newest received first (`sort=-received_at`). */
export async function listAlerts(
  ctx: ServiceContext,
  query: ListAlertsQuery,
): Promise<{ alerts: Alert[]; next_cursor: string | null }> {
  const rows = await alerts.listAlerts(ctx.sql, {
    status: query.status,
    source: query.source,
    before: query.cursor ? decodeCursor(query.cursor) : undefined,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    alerts: page.map(presentAlert),
    next_cursor: rows.length > query.limit && last ? encodeCursor(last) : null,
  };
}

/**
 * `GET /api/v1/incidents/{id}/alerts`: one page, in the alerts' fixed order (by id, so re-deliveries
 * move nothing between pages); `next_cursor` is null on the last page.
 */
export async function getIncidentAlertsPage(
  ctx: ServiceContext,
  ref: incidents.IncidentRef,
  query: IncidentItemsQuery,
): Promise<{ alerts: Alert[]; next_cursor: string | null }> {
  const incident = await incidents.findIncidentView(ctx.sql, ref);
  if (!incident) throw incidentNotFound(ref);
  const rows = await alerts.listAlertsOfIncidentPage(ctx.sql, incident.id, {
    afterId: query.cursor ? decodeIdCursor(query.cursor) : undefined,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    alerts: page.map(presentAlert),
    next_cursor: rows.length > query.limit && last ? encodeIdCursor(last) : null,
  };
}

/** Every alert of the incident, for code that needs them all (tests, internal readers). */
export async function getIncidentAlerts(ctx: ServiceContext, ref: incidents.IncidentRef): Promise<Alert[]> {
  const incident = await incidents.findIncidentView(ctx.sql, ref);
  if (!incident) throw incidentNotFound(ref);
  return (await alerts.listAlertsOfIncident(ctx.sql, incident.id)).map(presentAlert);
}
