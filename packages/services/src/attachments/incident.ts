import { incidents, type Queryable } from '@firebreak/db';
import { AppError } from '@firebreak/schema';
import { incidentNotFound } from '../incidents/ref';

/** The id of the incident a route names (its UUID or number), or 404. */
export async function requireIncidentId(sql: Queryable, ref: incidents.IncidentRef): Promise<string> {
  const incident = await incidents.findIncidentView(sql, ref);
  if (!incident) throw incidentNotFound(ref);
  return incident.id;
}

/** An attachment id of another incident is not found, as an unknown one is. */
export function attachmentNotFound(id: string): AppError {
  return new AppError('not_found', `No attachment ${id} on this incident.`);
}
