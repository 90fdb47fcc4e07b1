import { z } from 'zod';

/**
 * What the Grafana OnCall public API v1 serves, as far as the import reads it (a sample organisation is
 * in packages/testing/fixtures/oncall). Deliberately loose: unknown keys pass, and every field the real
 * API drops for some item types (shift fields per shift type, step fields per step type) is optional,
 * so a real organisation's data is read as it comes. A field with the wrong type still fails: importing it as something else would be
 * worse than stopping.
 */

const id = z.string().min(1);
const text = z.string().nullish();
const ids = z.array(z.string()).nullish();

/** One page: `next` decides whether another follows (a page past the end repeats the last one). */
export const OnCallPage = z.looseObject({
  next: z.string().nullable(),
  results: z.array(z.unknown()),
  current_page_number: z.number().int().optional(),
});
export type OnCallPage = z.infer<typeof OnCallPage>;

export const OnCallUserItem = z.looseObject({
  id,
  email: text,
  /** Not sent by the real API (D4); fakes and older versions may. */
  name: text,
  username: text,
  role: text,
  // The code sends an object or null; the documentation says a list (D1), which some fakes follow.
  slack: z.preprocess(
    (value) => (Array.isArray(value) ? (value[0] ?? null) : value),
    z.looseObject({ user_id: text }).nullish(),
  ),
});
export type OnCallUserItem = z.infer<typeof OnCallUserItem>;

export const OnCallScheduleItem = z.looseObject({
  id,
  name: text,
  /** `web`, `calendar` or `ical`. */
  type: text,
  time_zone: text,
  /** Absent for iCal schedules. */
  shifts: ids,
});
export type OnCallScheduleItem = z.infer<typeof OnCallScheduleItem>;

export const OnCallShiftItem = z.looseObject({
  id,
  schedule: text,
  name: text,
  /** `single_event`, `recurrent_event`, `rolling_users` or `override`. */
  type: text,
  time_zone: text,
  level: z.number().int().nullish(),
  /** Naive `YYYY-MM-DDTHH:MM:SS`, wall-clock time in the shift's (else the schedule's) zone. */
  start: text,
  rotation_start: text,
  /** Seconds. */
  duration: z.number().nullish(),
  frequency: text,
  interval: z.number().int().nullish(),
  until: text,
  by_day: ids,
  by_month: z.array(z.number()).nullish(),
  by_monthday: z.array(z.number()).nullish(),
  users: ids,
  rolling_users: z.array(z.array(z.string())).nullish(),
  start_rotation_from_user_index: z.number().int().nullish(),
});
export type OnCallShiftItem = z.infer<typeof OnCallShiftItem>;

export const OnCallEscalationChainItem = z.looseObject({ id, name: z.string() });
export type OnCallEscalationChainItem = z.infer<typeof OnCallEscalationChainItem>;

export const OnCallEscalationStepItem = z.looseObject({
  id,
  escalation_chain_id: z.string(),
  /** 0-based, possibly with gaps (§4.6). */
  position: z.number().int(),
  type: text,
  /** Only on `wait` steps in the real API; may be null there. */
  duration: z.number().nullish(),
  persons_to_notify: ids,
  persons_to_notify_next_each_time: ids,
  notify_on_call_from_schedule: text,
});
export type OnCallEscalationStepItem = z.infer<typeof OnCallEscalationStepItem>;

export const OnCallIntegrationItem = z.looseObject({ id, name: z.string(), type: z.string() });
export type OnCallIntegrationItem = z.infer<typeof OnCallIntegrationItem>;

/** The endpoints the import reads, each with the schema of its items. */
export const onCallSourceItems = {
  users: OnCallUserItem,
  schedules: OnCallScheduleItem,
  on_call_shifts: OnCallShiftItem,
  escalation_chains: OnCallEscalationChainItem,
  escalation_policies: OnCallEscalationStepItem,
  integrations: OnCallIntegrationItem,
} as const;

export type OnCallSourceResource = keyof typeof onCallSourceItems;

/** Everything the import reads from one OnCall organisation, in the API's order. */
export type OnCallSource = { [R in OnCallSourceResource]: z.infer<(typeof onCallSourceItems)[R]>[] };
