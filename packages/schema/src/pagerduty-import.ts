import { z } from 'zod';

/**
 * The PagerDuty import (docs/import-pagerduty.md): what `POST /api/v1/imports/pagerduty` and
 * `firebreak-import pagerduty` take, and what PagerDuty's REST API v2 serves as far as the import reads it
 * (a sample account is in packages/testing/fixtures/pagerduty). Loose like the OnCall shapes: unknown keys
 * pass, fields PagerDuty leaves out for some items are optional, but a field of the wrong type still fails,
 * since importing it as something else would be worse than stopping.
 */

export const PAGERDUTY_API = 'https://api.pagerduty.com';

// Strict: a misspelt `dry_run` must be refused, not ignored and turned into a real import.
export const ImportPagerDutyInput = z.strictObject({
  /** A PagerDuty REST API key (read-only is enough), sent as `Token token=…`. Never stored or logged. */
  api_token: z.string().trim().min(1, 'must not be empty').max(1000),
  /** The REST API host: `https://api.pagerduty.com` unless the account lives elsewhere (EU: api.eu.pagerduty.com). */
  url: z
    .string()
    .trim()
    .max(2000)
    .pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }))
    .default(PAGERDUTY_API),
  dry_run: z.boolean().default(false),
});
export type ImportPagerDutyInput = z.infer<typeof ImportPagerDutyInput>;

const id = z.string().min(1);
const text = z.string().nullish();

/** A list answer: the items under the resource's name, and `more` while others follow. */
export const PagerDutyPage = z.looseObject({
  limit: z.number().int().nullish(),
  offset: z.number().int().nullish(),
  more: z.boolean().nullish(),
});
export type PagerDutyPage = z.infer<typeof PagerDutyPage>;

/** `{id, type, summary}`: a user, schedule, policy or integration named by another object. */
export const PagerDutyReference = z.looseObject({
  id,
  /** `user_reference`, `schedule_reference`, `…_inbound_integration_reference`, … */
  type: z.string(),
  summary: text,
  /** Set on references to deleted objects. */
  deleted_at: text,
});
export type PagerDutyReference = z.infer<typeof PagerDutyReference>;

export const PagerDutyUserItem = z.looseObject({
  id,
  name: text,
  email: text,
  /** `owner`, `admin`, `user`, `limited_user`, `observer`, `read_only_user`, `read_only_limited_user`, `restricted_access`. */
  role: text,
  deleted_at: text,
});
export type PagerDutyUserItem = z.infer<typeof PagerDutyUserItem>;

/** A layer's window: every day, or once a week from `start_day_of_week` (1 = Monday). */
export const PagerDutyRestriction = z.looseObject({
  /** `daily_restriction` or `weekly_restriction`. */
  type: z.string(),
  start_time_of_day: z.string(),
  duration_seconds: z.number(),
  start_day_of_week: z.number().int().nullish(),
});
export type PagerDutyRestriction = z.infer<typeof PagerDutyRestriction>;

export const PagerDutyScheduleLayer = z.looseObject({
  id: text,
  name: text,
  start: z.string(),
  /** Null: the layer does not end. */
  end: text,
  rotation_virtual_start: z.string(),
  rotation_turn_length_seconds: z.number().int(),
  /** In turn order. */
  users: z.array(z.looseObject({ user: PagerDutyReference })).default([]),
  restrictions: z.array(PagerDutyRestriction).nullish(),
});
export type PagerDutyScheduleLayer = z.infer<typeof PagerDutyScheduleLayer>;

export const PagerDutyScheduleItem = z.looseObject({
  id,
  name: text,
  time_zone: text,
  /** Only with `include[]=schedule_layers` on the list, or on `GET /schedules/{id}`. */
  schedule_layers: z.array(PagerDutyScheduleLayer).nullish(),
});
export type PagerDutyScheduleItem = z.infer<typeof PagerDutyScheduleItem>;

export const PagerDutyOverrideItem = z.looseObject({
  id: text,
  start: z.string(),
  end: z.string(),
  user: PagerDutyReference,
});
export type PagerDutyOverrideItem = z.infer<typeof PagerDutyOverrideItem>;

export const PagerDutyEscalationRule = z.looseObject({
  id: text,
  /** Minutes before an unacknowledged incident moves on from this rule. */
  escalation_delay_in_minutes: z.number(),
  targets: z.array(PagerDutyReference).default([]),
});
export type PagerDutyEscalationRule = z.infer<typeof PagerDutyEscalationRule>;

export const PagerDutyEscalationPolicyItem = z.looseObject({
  id,
  name: z.string(),
  /** How many times the whole policy repeats after its last rule. */
  num_loops: z.number().int().nullish(),
  escalation_rules: z.array(PagerDutyEscalationRule).default([]),
});
export type PagerDutyEscalationPolicyItem = z.infer<typeof PagerDutyEscalationPolicyItem>;

export const PagerDutyServiceItem = z.looseObject({
  id,
  name: z.string(),
  escalation_policy: PagerDutyReference.nullish(),
  /** `active`, `warning`, `critical`, `maintenance` or `disabled`. */
  status: text,
  integrations: z.array(PagerDutyReference).default([]),
});
export type PagerDutyServiceItem = z.infer<typeof PagerDutyServiceItem>;

/** `GET /services/{id}/integrations/{integration_id}`: the one answer that carries the key. */
export const PagerDutyIntegrationItem = z.looseObject({
  id,
  /** `events_api_v2_inbound_integration`, `generic_events_api_inbound_integration` (v1), `generic_email_inbound_integration`, … */
  type: z.string(),
  name: text,
  summary: text,
  /** The routing key senders use; PagerDuty's OpenAPI schema omits it although the API returns it. */
  integration_key: text,
});
export type PagerDutyIntegrationItem = z.infer<typeof PagerDutyIntegrationItem>;

/** Everything the import reads from one PagerDuty account. */
export interface PagerDutySource {
  users: PagerDutyUserItem[];
  /** With their layers. */
  schedules: PagerDutyScheduleItem[];
  /** Schedule id → its overrides in the window read (now to +90 days). */
  overrides: Record<string, PagerDutyOverrideItem[]>;
  escalation_policies: PagerDutyEscalationPolicyItem[];
  services: PagerDutyServiceItem[];
  /** Service id → its integrations, each read whole (with its key). */
  integrations: Record<string, PagerDutyIntegrationItem[]>;
  /** Ids referenced by a layer or rule that `GET /users/{id}` answered 404 for. */
  deleted_user_ids: string[];
}
