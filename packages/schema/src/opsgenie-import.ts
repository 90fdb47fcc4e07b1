import { z } from 'zod';

/**
 * The Opsgenie import (docs/import-opsgenie.md): what `POST /api/v1/imports/opsgenie` and
 * `firebreak-import opsgenie` take, and what Opsgenie's REST API v2 serves as far as the import reads it
 * (a sample account is in packages/testing/fixtures/opsgenie). The source shapes are loose, like the
 * OnCall ones: unknown keys pass and fields Opsgenie leaves out for some items are optional, but a field
 * of the wrong type still fails, since importing it as something else would be worse than stopping.
 */

export const OPSGENIE_US_API = 'https://api.opsgenie.com';

// Strict: a misspelt `dry_run` must be refused, not ignored and turned into a real import.
export const ImportOpsgenieInput = z.strictObject({
  /** An Opsgenie API key (Settings → API key management) with Read and Configuration access. */
  api_key: z.string().trim().min(1, 'must not be empty').max(1000),
  /** The API host: the US one by default, `https://api.eu.opsgenie.com` for an EU account. */
  url: z
    .string()
    .trim()
    .max(2000)
    .pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }))
    .default(OPSGENIE_US_API),
  dry_run: z.boolean().default(false),
});
export type ImportOpsgenieInput = z.infer<typeof ImportOpsgenieInput>;

const id = z.string().min(1);
const text = z.string().nullish();

/** A list answer: `data`, and `paging.next` (an absolute link) while more follow. */
export const OpsgenieList = z.looseObject({
  data: z.array(z.unknown()),
  paging: z.looseObject({ next: z.string().nullish() }).nullish(),
});
export type OpsgenieList = z.infer<typeof OpsgenieList>;

/** A single item's answer. */
export const OpsgenieItem = z.looseObject({ data: z.unknown() });

export const OpsgenieUserItem = z.looseObject({
  id,
  /** The e-mail address: Opsgenie's login. */
  username: text,
  fullName: text,
  /** `Owner`, `Admin`, `User`, `Observer`, `Stakeholder`, or a custom role's name. */
  role: z.looseObject({ id: text, name: text }).nullish(),
  blocked: z.boolean().nullish(),
});
export type OpsgenieUserItem = z.infer<typeof OpsgenieUserItem>;

/** A schedule's, rotation's or rule's reference to a user, team, schedule or escalation. */
export const OpsgenieRecipient = z.looseObject({
  /** `user`, `team`, `schedule`, `escalation` or `none`. */
  type: z.string(),
  id: text,
  username: text,
  name: text,
});
export type OpsgenieRecipient = z.infer<typeof OpsgenieRecipient>;

export const OpsgenieTeamMember = z.looseObject({
  user: z.looseObject({ id: text, username: text }),
  /** `admin` or `user`. */
  role: text,
});

export const OpsgenieTeamItem = z.looseObject({
  id,
  name: z.string(),
  description: text,
  /** Only in `GET /v2/teams/{id}`; the import reads each team for it. */
  members: z.array(OpsgenieTeamMember).nullish(),
});
export type OpsgenieTeamItem = z.infer<typeof OpsgenieTeamItem>;

export const OpsgenieRotation = z.looseObject({
  id: text,
  name: text,
  /** `daily`, `weekly` or `hourly`; a turn is `length` of them. */
  type: z.string(),
  length: z.number().int().nullish(),
  /** ISO 8601 with an offset (`2025-01-06T08:00:00Z`). */
  startDate: z.string(),
  endDate: text,
  participants: z.array(OpsgenieRecipient).nullish(),
  /** `time-of-day` or `weekday-and-time-of-day` windows; this service's layers have none. */
  timeRestriction: z.looseObject({ type: text }).nullish(),
});
export type OpsgenieRotation = z.infer<typeof OpsgenieRotation>;

export const OpsgenieScheduleItem = z.looseObject({
  id,
  name: z.string(),
  description: text,
  timezone: text,
  enabled: z.boolean().nullish(),
  ownerTeam: z.looseObject({ id: text, name: text }).nullish(),
  /** With `expand=rotation`, in the schedule's order. */
  rotations: z.array(OpsgenieRotation).nullish(),
});
export type OpsgenieScheduleItem = z.infer<typeof OpsgenieScheduleItem>;

export const OpsgenieOverrideItem = z.looseObject({
  alias: text,
  user: OpsgenieRecipient.nullish(),
  startDate: text,
  endDate: text,
});
export type OpsgenieOverrideItem = z.infer<typeof OpsgenieOverrideItem>;

export const OpsgenieEscalationRule = z.looseObject({
  /** `if-not-acked` or `if-not-closed`. */
  condition: text,
  /** `default`, `next`, `previous`, `users`, `admins`, `random` or `all`. */
  notifyType: text,
  /** Counted from the alert's creation, not from the previous rule. */
  delay: z.looseObject({ timeAmount: z.number(), timeUnit: text }).nullish(),
  recipient: OpsgenieRecipient,
});
export type OpsgenieEscalationRule = z.infer<typeof OpsgenieEscalationRule>;

export const OpsgenieEscalationItem = z.looseObject({
  id,
  name: z.string(),
  description: text,
  ownerTeam: z.looseObject({ id: text, name: text }).nullish(),
  rules: z.array(OpsgenieEscalationRule).nullish(),
  repeat: z
    .looseObject({
      /** Minutes after the last rule. */
      waitInterval: z.number().nullish(),
      count: z.number().int().nullish(),
      resetRecipientStates: z.boolean().nullish(),
      closeAlertAfterAll: z.boolean().nullish(),
    })
    .nullish(),
});
export type OpsgenieEscalationItem = z.infer<typeof OpsgenieEscalationItem>;

export const OpsgenieIntegrationItem = z.looseObject({
  id,
  name: z.string(),
  /** `API`, `Prometheus`, `Email`, `Grafana`, `Webhook`, … */
  type: z.string(),
  enabled: z.boolean().nullish(),
  teamId: text,
  /** Only in `GET /v2/integrations/{id}`, for the types that have one. */
  apiKey: text,
});
export type OpsgenieIntegrationItem = z.infer<typeof OpsgenieIntegrationItem>;

/** Everything the import reads from one Opsgenie account, in the API's order. */
export interface OpsgenieSource {
  users: OpsgenieUserItem[];
  /** With their members. */
  teams: OpsgenieTeamItem[];
  /** With their rotations. */
  schedules: OpsgenieScheduleItem[];
  /** Schedule id → its overrides. */
  overrides: Record<string, OpsgenieOverrideItem[]>;
  escalations: OpsgenieEscalationItem[];
  /** With `apiKey` where the detail has one. */
  integrations: OpsgenieIntegrationItem[];
}
