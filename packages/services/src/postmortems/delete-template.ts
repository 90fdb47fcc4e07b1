import { postmortemTemplates } from '@firebreak/db';
import { AppError } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { presentTemplate } from './present';

/**
 * `DELETE /api/v1/postmortem-templates/{id}` (admin). Not the default (409 `template_is_default`): new
 * documents need one. Documents started from it keep their text and lose only the link.
 */
export async function deletePostmortemTemplate(
  ctx: ServiceContext,
  id: string,
  origin: ChangeOrigin = systemOrigin,
): Promise<void> {
  await ctx.sql.begin(async (tx) => {
    const current = await postmortemTemplates.lockTemplate(tx, id);
    if (!current) throw new AppError('not_found', `No post-mortem template ${id}.`);
    if (current.is_default) {
      throw new AppError(
        'template_is_default',
        'The default template cannot be deleted; make another one the default first.',
      );
    }
    await postmortemTemplates.deleteTemplate(tx, id);
    await recordAudit(tx, ctx, {
      origin,
      entity: 'postmortem_template',
      entityId: id,
      action: 'delete',
      before: presentTemplate(current),
      after: null,
    });
  });
  ctx.logger.info({ postmortem_template_id: id }, 'postmortem template deleted');
}
