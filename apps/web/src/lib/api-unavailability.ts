// Unavailability in schedules (docs/api.md#unavailability); the types come from @firebreak/schema.
import type {
  CreatedUnavailability,
  CreateUnavailabilityInput,
  ScheduleUnavailability,
  ScheduleUnavailabilityList,
} from '@firebreak/schema';
import { del, get, post } from './api-client';

const path = (scheduleId: string) => `/api/v1/schedules/${encodeURIComponent(scheduleId)}/unavailability`;

export const unavailabilityApi = {
  list: (scheduleId: string, from: Date, to: Date) =>
    get<ScheduleUnavailabilityList>(
      `${path(scheduleId)}?${new URLSearchParams({ from: from.toISOString(), to: to.toISOString() })}`,
    ),
  create: (scheduleId: string, input: CreateUnavailabilityInput) =>
    post<CreatedUnavailability>(path(scheduleId), input),
  remove: (scheduleId: string, unavailabilityId: string) =>
    del(`${path(scheduleId)}/${encodeURIComponent(unavailabilityId)}`),
};

export type { CreateUnavailabilityInput, ScheduleUnavailability };
