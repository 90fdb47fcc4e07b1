import { type incidents, postmortemComments } from '@firebreak/db';
import type { CreatePostmortemCommentInput, PostmortemComment } from '@firebreak/schema';
import type { Principal } from '../auth/principal';
import type { ServiceContext } from '../context';
import { actorFromPrincipal } from '../incidents/actor';
import { requireIncident } from './incident';
import { presentComment } from './present';

/** `POST …/postmortem/comments`: the author is named as the timeline names them (an API key as itself). */
export async function addPostmortemComment(
  ctx: ServiceContext,
  principal: Principal,
  ref: incidents.IncidentRef,
  input: CreatePostmortemCommentInput,
): Promise<PostmortemComment> {
  const incident = await requireIncident(ctx.sql, ref);
  const author = actorFromPrincipal(principal);
  const row = await postmortemComments.insertComment(ctx.sql, {
    incidentId: incident.id,
    authorId: principal.user?.id ?? null,
    authorName: author.name ?? 'unknown',
    body: input.body,
    at: ctx.now(),
  });
  return presentComment(row);
}
