import { postmortemTemplates } from '@firebreak/db';
import { AppError, type PostmortemTemplate } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { presentTemplate } from './present';

/** `GET /api/v1/postmortem-templates/{id}`. */
export async function getPostmortemTemplate(ctx: ServiceContext, id: string): Promise<PostmortemTemplate> {
  const row = await postmortemTemplates.findTemplate(ctx.sql, id);
  if (!row) throw new AppError('not_found', `No post-mortem template ${id}.`);
  return presentTemplate(row);
}
