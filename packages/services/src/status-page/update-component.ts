import { statusPageComponents } from '@firebreak/db';
import type { StatusComponent, UpdateStatusComponentInput } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { componentNotFound } from './list-components';
import { componentAuditView, presentComponent } from './present';

/**
 * `PATCH /api/v1/status-page/components/{id}` (admins). `status` set by hand overrides the incidents
 * until it is set back to null.
 */
export async function updateStatusComponent(
  ctx: ServiceContext,
  id: string,
  input: UpdateStatusComponentInput,
  origin: ChangeOrigin = systemOrigin,
): Promise<StatusComponent> {
  const row = await ctx.sql.begin(async (tx) => {
    const before = await statusPageComponents.findComponent(tx, id);
    if (!before) return undefined;
    const after = await statusPageComponents.updateComponent(
      tx,
      id,
      {
        name: input.name,
        groupName: input.group,
        match: input.match,
        position: input.position,
        status: input.status,
      },
      ctx.now(),
    );
    if (!after) return undefined;
    await recordAudit(tx, ctx, {
      origin,
      entity: 'status_page_component',
      entityId: id,
      action: 'update',
      before: componentAuditView(before),
      after: componentAuditView(after),
    });
    return after;
  });
  if (!row) throw componentNotFound(id);
  ctx.logger.info(
    { status_page_component_id: id, fields: Object.keys(input), status: row.status },
    'status page component updated',
  );
  return presentComponent(row, await statusPageComponents.openSeverityRank(ctx.sql, row.match));
}
