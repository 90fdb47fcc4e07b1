import { incidents, type Queryable } from '@firebreak/db';
import { incidentNotFound } from '../incidents/ref';

/** The incident a post-mortem route names (its UUID or number), or 404. */
export async function requireIncident(
  sql: Queryable,
  ref: incidents.IncidentRef,
): Promise<incidents.IncidentView> {
  const incident = await incidents.findIncidentView(sql, ref);
  if (!incident) throw incidentNotFound(ref);
  return incident;
}
