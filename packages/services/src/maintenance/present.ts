import type { maintenanceWindows } from '@firebreak/db';
import { maintenanceStatus } from '@firebreak/domain';
import type { MaintenanceWindow } from '@firebreak/schema';

/** The window as the API shows it (docs/api.md#maintenance-windows), its status as of `at`. */
export function presentMaintenanceWindow(
  row: maintenanceWindows.MaintenanceWindowRow,
  at: Date,
): MaintenanceWindow {
  return {
    id: row.id,
    name: row.name,
    starts_at: row.starts_at.toISOString(),
    ends_at: row.ends_at.toISOString(),
    match: row.match,
    status: maintenanceStatus(row, at),
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
  };
}
