import type { Queryable } from './client';

export interface MaintenanceMatch {
  integration_ids?: string[];
  labels?: Record<string, string>;
}

export interface MaintenanceWindowRow {
  id: string;
  name: string;
  starts_at: Date;
  ends_at: Date;
  match: MaintenanceMatch;
  created_by: string | null;
  created_at: Date;
  released_at: Date | null;
}

/** The windows in force at `at` (started, not ended), oldest start first. */
export async function listActiveWindows(sql: Queryable, at: Date): Promise<MaintenanceWindowRow[]> {
  return sql<MaintenanceWindowRow[]>`
    select * from maintenance_windows
    where starts_at <= ${at} and ends_at > ${at}
    order by starts_at, id`;
}
