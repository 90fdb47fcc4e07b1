import { maintenanceWindows } from '@firebreak/db';
import { AppError, type CreateMaintenanceWindowInput, type MaintenanceWindow } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { presentMaintenanceWindow } from './present';

/**
 * Schedules a window. It may start in the past (maintenance that began a moment ago); from its start it
 * holds back the alerts it matches (docs/api.md#maintenance-windows). `createdBy`: the user asking (an
 * API key's creator), if any.
 */
export async function createMaintenanceWindow(
  ctx: ServiceContext,
  input: CreateMaintenanceWindowInput,
  createdBy: string | null,
  origin: ChangeOrigin = systemOrigin,
): Promise<MaintenanceWindow> {
  await requireIntegrations(ctx, input.match.integration_ids ?? []);
  const at = ctx.now();
  const row = await ctx.sql.begin(async (tx) => {
    const inserted = await maintenanceWindows.insertWindow(
      tx,
      {
        name: input.name,
        startsAt: new Date(input.starts_at),
        endsAt: new Date(input.ends_at),
        match: input.match,
        createdBy,
      },
      at,
    );
    await recordAudit(tx, ctx, {
      origin,
      entity: 'maintenance_window',
      entityId: inserted.id,
      action: 'create',
      before: null,
      after: presentMaintenanceWindow(inserted, at),
    });
    return inserted;
  });
  ctx.logger.info(
    { maintenance_window_id: row.id, starts_at: row.starts_at, ends_at: row.ends_at },
    'maintenance window created',
  );
  return presentMaintenanceWindow(row, at);
}

/** A window may only name integrations that exist: a mistyped id would hold back nothing, silently. */
async function requireIntegrations(ctx: ServiceContext, ids: readonly string[]): Promise<void> {
  const missing = new Set(await maintenanceWindows.missingIntegrationIds(ctx.sql, ids));
  if (missing.size === 0) return;
  throw new AppError(
    'validation_failed',
    'The request is not valid.',
    ids.flatMap((id, i) =>
      missing.has(id) ? [{ path: `match.integration_ids[${i}]`, message: 'no integration has this id' }] : [],
    ),
  );
}
