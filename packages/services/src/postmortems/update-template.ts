import { postmortemTemplates } from '@firebreak/db';
import { AppError, type PostmortemTemplate, type UpdatePostmortemTemplateInput } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { requireFreeName } from './create-template';
import { presentTemplate } from './present';
import { refusingWriteErrors } from './write-errors';

/**
 * `PATCH /api/v1/postmortem-templates/{id}` (admin). There is always one default: `is_default: true`
 * moves it here, and `false` on the default is refused (409 `template_is_default`), since that would
 * leave new documents without a template. Documents already started keep their text.
 */
export async function updatePostmortemTemplate(
  ctx: ServiceContext,
  id: string,
  input: UpdatePostmortemTemplateInput,
  origin: ChangeOrigin = systemOrigin,
): Promise<PostmortemTemplate> {
  const row = await refusingWriteErrors(
    ctx.sql.begin(async (tx) => {
      const at = ctx.now();
      const current = await postmortemTemplates.lockTemplate(tx, id);
      if (!current) throw new AppError('not_found', `No post-mortem template ${id}.`);
      if (input.is_default === false && current.is_default) {
        throw new AppError(
          'template_is_default',
          'This is the default template; make another one the default instead.',
        );
      }
      if (input.name !== undefined) await requireFreeName(tx, input.name, id);
      const becomesDefault = input.is_default === true && !current.is_default;
      if (becomesDefault) await postmortemTemplates.clearDefaultTemplate(tx, at);
      const updated = await postmortemTemplates.updateTemplate(tx, id, {
        name: input.name ?? current.name,
        content: input.content ?? current.content,
        isDefault: current.is_default || becomesDefault,
        at,
      });
      await recordAudit(tx, ctx, {
        origin,
        entity: 'postmortem_template',
        entityId: id,
        action: 'update',
        before: presentTemplate(current),
        after: presentTemplate(updated),
      });
      return updated;
    }),
  );
  ctx.logger.info({ postmortem_template_id: id, is_default: row.is_default }, 'postmortem template changed');
  return presentTemplate(row);
}
