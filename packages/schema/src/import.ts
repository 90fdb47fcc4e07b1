import { z } from 'zod';
import { User } from './auth';
import { EscalationTier, ScheduleLayer } from './oncall';

/**
 * The Grafana OnCall import (docs/import-oncall.md): what `POST /api/v1/imports/oncall` and
 * `firebreak-import oncall` take and answer, and the body of `POST /api/v1/auth/setup` with which an
 * imported user sets a password (docs/api.md#authentication).
 */

// Strict: a misspelt `dry_run` must be refused, not ignored and turned into a real import.
export const ImportOnCallInput = z.strictObject({
  /** The "OnCall API URL" from OnCall → Settings; endpoints live under `<url>/api/v1/`. */
  url: z
    .string()
    .trim()
    .max(2000)
    .pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })),
  /** An OnCall API token, sent raw in `Authorization`. Never stored or logged. */
  api_token: z.string().trim().min(1, 'must not be empty').max(1000),
  dry_run: z.boolean().default(false),
});
export type ImportOnCallInput = z.infer<typeof ImportOnCallInput>;

export const ImportKind = z.enum(['user', 'schedule', 'escalation_policy', 'integration']);
export type ImportKind = z.infer<typeof ImportKind>;

/** A source item that was skipped: a user without (or with an existing) e-mail, a name clash. */
export const ImportConflict = z.object({
  kind: ImportKind,
  /** The name the record would have had. */
  name: z.string(),
  reason: z.string(),
  /** Users only: the source e-mail (lowercased; null when it had none) and login. */
  email: z.string().nullable().optional(),
  username: z.string().nullable().optional(),
});
export type ImportConflict = z.infer<typeof ImportConflict>;

/** Imported differently from the source, or not at all: an iCal schedule, a step, a recurrence. */
export const ImportWarning = z.object({
  kind: ImportKind,
  /** The user, schedule or policy concerned. */
  name: z.string(),
  message: z.string(),
});
export type ImportWarning = z.infer<typeof ImportWarning>;

export const ImportIntegration = z.object({
  name: z.string(),
  /** The integration's type, as the source names it. */
  type: z.string(),
  /**
   * Where to point the sender in this service (a webhook path, or the path of a sender's own API such as
   * `/v2/enqueue`); null when this service cannot receive what it sent (inbound e-mail).
   */
  webhook_path: z.string().nullable(),
  /**
   * The integration this import created for it, keeping the source's key so senders change only the
   * host; null in a dry run, and when none was created (skipped as a conflict, or a type without a key).
   */
  integration_id: z.uuid().nullable(),
  /** What to do about the sender, when there is more to it than the path. */
  note: z.string().nullable(),
});
export type ImportIntegration = z.infer<typeof ImportIntegration>;

const counts = z.object({ created: z.int(), skipped: z.int() });
export const ImportSummary = z.object({
  users: counts,
  schedules: counts,
  escalation_policies: counts,
  /** Integrations created with the source's key (never by the OnCall import: 0 and 0 there). */
  integrations: counts,
});
export type ImportSummary = z.infer<typeof ImportSummary>;

// The records as the API shows them (docs/api.md#on-call) without time stamps. Ids are null where a dry
// run created nothing (references to users that already existed keep theirs).
export const ImportedUser = User.omit({ created_at: true, shift_notices: true, teams_user_id: true }).extend({
  id: z.uuid().nullable(),
});
export type ImportedUser = z.infer<typeof ImportedUser>;

export const ImportedSchedule = z.object({
  id: z.uuid().nullable(),
  name: z.string(),
  timezone: z.string(),
  layers: z.array(ScheduleLayer),
});
export type ImportedSchedule = z.infer<typeof ImportedSchedule>;

export const ImportedTier = EscalationTier.extend({
  /** The imported schedule a schedule tier pages, by name, so a dry run can say which. */
  schedule_name: z.string().nullable(),
});
export type ImportedTier = z.infer<typeof ImportedTier>;

export const ImportedEscalationPolicy = z.object({
  id: z.uuid().nullable(),
  name: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  repeat: z.int(),
  tiers: z.array(ImportedTier),
});
export type ImportedEscalationPolicy = z.infer<typeof ImportedEscalationPolicy>;

export const SetupTokenGrant = z.object({
  email: z.string(),
  /** Shown once; null in a dry run, which issues none. */
  token: z.string().nullable(),
});
export type SetupTokenGrant = z.infer<typeof SetupTokenGrant>;

export const OnCallImportResult = z.object({
  dry_run: z.boolean(),
  summary: ImportSummary,
  users: z.array(ImportedUser),
  schedules: z.array(ImportedSchedule),
  escalation_policies: z.array(ImportedEscalationPolicy),
  conflicts: z.array(ImportConflict),
  warnings: z.array(ImportWarning),
  integrations: z.array(ImportIntegration),
  setup_tokens: z.array(SetupTokenGrant),
});
export type OnCallImportResult = z.infer<typeof OnCallImportResult>;

/** Every importer (OnCall, PagerDuty, Opsgenie) answers this same shape. */
export const ImportResult = OnCallImportResult;
export type ImportResult = OnCallImportResult;

export const SetupPasswordInput = z.strictObject({
  token: z.string().trim().min(1, 'must not be empty').max(200),
  // The same rule as a password set by an admin (CreateUserInput).
  password: z.string().min(8, 'must be at least 8 characters').max(1024),
});
export type SetupPasswordInput = z.infer<typeof SetupPasswordInput>;
