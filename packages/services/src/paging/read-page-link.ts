import { incidents, users } from '@firebreak/db';
import type { IncidentSeverity, IncidentStatus } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { verifyPageLink } from './page-link';

export interface PageLinkView {
  incident: { id: string; number: number; title: string; severity: IncidentSeverity; status: IncidentStatus };
  user: { id: string; name: string };
}

/**
 * What an acknowledge link is about, or null when the token is not genuine, has expired, or names an
 * incident or person that no longer exists. Reads only: a GET of the link never acknowledges, because
 * mail scanners fetch every link of a message before anyone reads it (docs/paging.md#acknowledge-links).
 */
export async function readPageLink(ctx: ServiceContext, token: string): Promise<PageLinkView | null> {
  const claims = await verifyPageLink(ctx, token);
  if (!claims) return null;
  const [incident, user] = await Promise.all([
    incidents.findIncidentView(ctx.sql, { id: claims.incidentId }),
    users.findUserById(ctx.sql, claims.userId),
  ]);
  if (!incident || !user?.active) return null;
  return {
    incident: {
      id: incident.id,
      number: incident.number,
      title: incident.title,
      severity: incident.severity,
      status: incident.status,
    },
    user: { id: user.id, name: user.name },
  };
}
