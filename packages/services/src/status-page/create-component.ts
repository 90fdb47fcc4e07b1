import { statusPageComponents } from '@firebreak/db';
import type { CreateStatusComponentInput, StatusComponent } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { componentAuditView, presentComponent } from './present';

/** `POST /api/v1/status-page/components` (admins). */
export async function createStatusComponent(
  ctx: ServiceContext,
  input: CreateStatusComponentInput,
  origin: ChangeOrigin = systemOrigin,
): Promise<StatusComponent> {
  const row = await ctx.sql.begin(async (tx) => {
    const inserted = await statusPageComponents.insertComponent(
      tx,
      {
        name: input.name,
        groupName: input.group,
        match: input.match,
        position: input.position,
        status: input.status,
      },
      ctx.now(),
    );
    await recordAudit(tx, ctx, {
      origin,
      entity: 'status_page_component',
      entityId: inserted.id,
      action: 'create',
      before: null,
      after: componentAuditView(inserted),
    });
    return inserted;
  });
  ctx.logger.info({ status_page_component_id: row.id }, 'status page component created');
  return presentComponent(row, await statusPageComponents.openSeverityRank(ctx.sql, row.match));
}
