import { maintenanceWindows } from '@firebreak/db';
import type { ListMaintenanceWindowsQuery, MaintenanceWindow } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { presentMaintenanceWindow } from './present';

/** Newest start first, optionally only those with a status as of now. */
export async function listMaintenanceWindows(
  ctx: ServiceContext,
  query: ListMaintenanceWindowsQuery,
): Promise<MaintenanceWindow[]> {
  const at = ctx.now();
  const rows = await maintenanceWindows.listWindows(ctx.sql, { status: query.status, at });
  return rows.map((row) => presentMaintenanceWindow(row, at));
}
