import { type incidents, postmortemComments } from '@firebreak/db';
import { AppError } from '@firebreak/schema';
import type { Principal } from '../auth/principal';
import type { ServiceContext } from '../context';
import { requireIncident } from './incident';

/** `DELETE …/postmortem/comments/{comment_id}`: its author or an admin; anyone else 403. */
export async function deletePostmortemComment(
  ctx: ServiceContext,
  principal: Principal,
  ref: incidents.IncidentRef,
  commentId: string,
): Promise<void> {
  const incident = await requireIncident(ctx.sql, ref);
  const comment = await postmortemComments.findComment(ctx.sql, incident.id, commentId);
  if (!comment) throw new AppError('not_found', `Incident #${incident.number} has no comment ${commentId}.`);
  const isAuthor = comment.author_id !== null && comment.author_id === principal.user?.id;
  if (!isAuthor && principal.role !== 'admin') {
    throw new AppError('forbidden', 'Only its author or an admin may delete a comment.');
  }
  await postmortemComments.deleteComment(ctx.sql, comment.id);
}
