import { type incidents, postmortemComments } from '@firebreak/db';
import type { PostmortemComment } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { requireIncident } from './incident';
import { presentComment } from './present';

/** `GET /api/v1/incidents/{id}/postmortem/comments`: oldest first. */
export async function listPostmortemComments(
  ctx: ServiceContext,
  ref: incidents.IncidentRef,
): Promise<PostmortemComment[]> {
  const incident = await requireIncident(ctx.sql, ref);
  return (await postmortemComments.listComments(ctx.sql, incident.id)).map(presentComment);
}
