import { ai, type incidents, postmortems } from '@firebreak/db';
import { AppError, type Postmortem } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { requireIncident } from './incident';
import { presentPostmortem } from './present';

/**
 * `GET /api/v1/incidents/{id}/postmortem`: the document and its AI draft. An incident gets a document
 * when someone saves one or an AI draft is asked for; before that, 404 `postmortem_not_found`.
 */
export async function getPostmortem(ctx: ServiceContext, ref: incidents.IncidentRef): Promise<Postmortem> {
  const incident = await requireIncident(ctx.sql, ref);
  // The request first, then the document, never in parallel: a request read as `done` was committed
  // with its draft, so the draft is visible to the next statement. Read the other way round, a draft
  // landing in between would answer `done` without its text.
  const latest = await ai.latestPostmortemRequest(ctx.sql, incident.id);
  const row = await postmortems.findPostmortem(ctx.sql, incident.id);
  if (!row) throw postmortemNotFound(incident.number);
  return presentPostmortem(row, latest);
}

export function postmortemNotFound(number: number): AppError {
  return new AppError('postmortem_not_found', `Incident #${number} has no post-mortem yet.`);
}
