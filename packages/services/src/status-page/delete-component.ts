import { statusPageComponents } from '@firebreak/db';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { componentNotFound } from './list-components';
import { componentAuditView } from './present';

/** `DELETE /api/v1/status-page/components/{id}` (admins): the page stops showing it at once. */
export async function deleteStatusComponent(
  ctx: ServiceContext,
  id: string,
  origin: ChangeOrigin = systemOrigin,
): Promise<void> {
  const deleted = await ctx.sql.begin(async (tx) => {
    const before = await statusPageComponents.findComponent(tx, id);
    if (!before || !(await statusPageComponents.deleteComponent(tx, id))) return false;
    await recordAudit(tx, ctx, {
      origin,
      entity: 'status_page_component',
      entityId: id,
      action: 'delete',
      before: componentAuditView(before),
      after: null,
    });
    return true;
  });
  if (!deleted) throw componentNotFound(id);
  ctx.logger.info({ status_page_component_id: id }, 'status page component deleted');
}
