import type { statusPageComponents } from '@firebreak/db';
import type { StatusComponent } from '@firebreak/schema';
import { effectiveStatus } from './rules';

export function presentComponent(
  row: statusPageComponents.ComponentRow,
  openSeverityRank: number,
): StatusComponent {
  return {
    id: row.id,
    name: row.name,
    group: row.group_name,
    match: row.match,
    position: row.position,
    status: row.status,
    current_status: effectiveStatus(row.status, openSeverityRank),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A component as its audit row shows it: its configuration, not the status incidents gave it. */
export function componentAuditView(row: statusPageComponents.ComponentRow) {
  return {
    id: row.id,
    name: row.name,
    group: row.group_name,
    match: row.match,
    position: row.position,
    status: row.status,
  };
}
