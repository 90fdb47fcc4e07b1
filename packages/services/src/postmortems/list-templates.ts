import { postmortemTemplates } from '@firebreak/db';
import type { PostmortemTemplate } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { presentTemplate } from './present';

/** `GET /api/v1/postmortem-templates`: the default first, then by name. */
export async function listPostmortemTemplates(ctx: ServiceContext): Promise<PostmortemTemplate[]> {
  return (await postmortemTemplates.listTemplates(ctx.sql)).map(presentTemplate);
}
