import type { scheduleUnavailability } from '@firebreak/db';
import type { ScheduleUnavailability } from '@firebreak/schema';

export function presentUnavailability(row: scheduleUnavailability.UnavailabilityRow): ScheduleUnavailability {
  return {
    id: row.id,
    schedule_id: row.schedule_id,
    user: { id: row.user_id, name: row.user_name },
    starts_at: row.starts_at.toISOString(),
    ends_at: row.ends_at.toISOString(),
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
  };
}
