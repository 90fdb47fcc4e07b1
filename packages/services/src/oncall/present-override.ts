import type { scheduleOverrides } from '@firebreak/db';
import type { ScheduleOverride } from '@firebreak/schema';

export function presentOverride(row: scheduleOverrides.OverrideRow): ScheduleOverride {
  return {
    id: row.id,
    schedule_id: row.schedule_id,
    user: { id: row.user_id, name: row.user_name },
    replaces_user_id: row.replaces_user_id,
    starts_at: row.starts_at.toISOString(),
    ends_at: row.ends_at.toISOString(),
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
  };
}
