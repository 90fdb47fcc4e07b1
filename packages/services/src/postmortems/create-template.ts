import { postmortemTemplates, type Queryable } from '@firebreak/db';
import { AppError, type CreatePostmortemTemplateInput, type PostmortemTemplate } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { presentTemplate } from './present';
import { refusingWriteErrors } from './write-errors';

/** `POST /api/v1/postmortem-templates` (admin). `is_default: true` takes the default from the current one. */
export async function createPostmortemTemplate(
  ctx: ServiceContext,
  input: CreatePostmortemTemplateInput,
  origin: ChangeOrigin = systemOrigin,
): Promise<PostmortemTemplate> {
  // The name check below answers the usual case; a concurrent create of the same name is the constraint's.
  const row = await refusingWriteErrors(
    ctx.sql.begin(async (tx) => {
      const at = ctx.now();
      await requireFreeName(tx, input.name, null);
      if (input.is_default) await postmortemTemplates.clearDefaultTemplate(tx, at);
      const created = await postmortemTemplates.insertTemplate(tx, {
        name: input.name,
        content: input.content,
        isDefault: input.is_default ?? false,
        at,
      });
      await recordAudit(tx, ctx, {
        origin,
        entity: 'postmortem_template',
        entityId: created.id,
        action: 'create',
        before: null,
        after: presentTemplate(created),
      });
      return created;
    }),
  );
  ctx.logger.info(
    { postmortem_template_id: row.id, is_default: row.is_default },
    'postmortem template created',
  );
  return presentTemplate(row);
}

/** Names are unique, so people can tell templates apart in the picker. */
export async function requireFreeName(tx: Queryable, name: string, exceptId: string | null): Promise<void> {
  if (!(await postmortemTemplates.templateNameTaken(tx, name, exceptId))) return;
  throw new AppError('conflict', `A post-mortem template named "${name}" already exists.`);
}
