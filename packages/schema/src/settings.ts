import { z } from 'zod';
import { StatusPageTitle } from './status-page';

const secret = z.string().min(16, 'use at least 16 characters').max(512).nullable();

/** `PUT /api/v1/settings/integrations/generic-webhook` (docs/api.md#settings): null removes the secret. */
export const GenericWebhookSettingsInput = z.object({ signing_secret: secret });

/**
 * Alertmanager cannot sign; it can send `Authorization: Bearer <token>`
 * (docs/integrations/alert-webhooks.md#alertmanager).
 */
export const AlertmanagerSettingsInput = z.object({ bearer_token: secret });

/**
 * Grafana's optional HMAC signing (docs/integrations/alert-webhooks.md#grafana); the timestamp header
 * only if Grafana sends one.
 */
export const GrafanaSettingsInput = z.object({
  hmac_secret: secret,
  timestamp_header: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,100}$/, 'must be an HTTP header name')
    .nullable()
    .optional(),
});

/** Which SNS topics may deliver CloudWatch alarms; null lifts the restriction. */
export const CloudMonitorSettingsInput = z.object({
  topic_arns: z
    .array(
      z
        .string()
        .regex(/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_.-]{1,256}$/, 'must be an SNS topic ARN'),
    )
    .min(1)
    .max(100)
    .nullable(),
});

const ChatAuthTest = z.union([
  z.object({ ok: z.literal(true), team: z.string(), user: z.string(), bot_id: z.string() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);

/** The chat integration's state: configured, signing secret present, and the bot token's auth.test. */
export const ChatSettingsView = z.object({
  configured: z.boolean(),
  signing_secret_set: z.boolean(),
  auth_test: ChatAuthTest.nullable(),
});

/**
 * Storm mode's settings when none was stored (docs/api.md#storm-mode; the reasons for these numbers:
 * docs/decisions.md#alert-storms).
 */
export const stormSettingDefaults = {
  storm_mode_enabled: true,
  storm_threshold_incidents: 10,
  storm_window_minutes: 5,
  storm_calm_minutes: 10,
} as const;

/**
 * What happens around an incident when nothing was stored: a draft after every resolution (the
 * historic behaviour) and chat messages kept out of the timeline until a team opts in.
 */
export const followupSettingDefaults = {
  postmortem_auto_draft_min_minutes: 0 as number | null,
  chat_timeline_sync: false,
};

export const followupSettingLimits = { postmortem_auto_draft_max_minutes: 10_080 } as const;

/** Bounds of the storm settings: a day is the longest window or calm that still reads as "a storm". */
export const stormSettingLimits = {
  storm_threshold_incidents: { min: 1, max: 10_000 },
  storm_window_minutes: { min: 1, max: 1440 },
  storm_calm_minutes: { min: 1, max: 1440 },
} as const;

const stormNumber = (limits: { min: number; max: number }) =>
  z.number().int().min(limits.min).max(limits.max);

/** What `GET /api/v1/settings` shows: whether secrets are set, never the secrets. */
export const SettingsView = z.object({
  generic_webhook: z.object({ signing_secret_set: z.boolean() }),
  metrics_alertmanager: z.object({ bearer_token_set: z.boolean() }),
  dashboard_alerting: z.object({ hmac_secret_set: z.boolean(), timestamp_header: z.string().nullable() }),
  cloud_monitor: z.object({ topic_arns: z.array(z.string()).nullable() }),
  chat: ChatSettingsView,
  /** Microsoft Teams, configured by environment (docs/teams.md). */
  teams: z.object({ configured: z.boolean(), team_id: z.string().nullable() }),
  ai: z.object({ provider: z.string(), configured: z.boolean() }),
  default_escalation_policy_id: z.uuid().nullable(),
  /** The four fixed `/api/v1/webhooks/*` paths accept alerts (docs/integrations/keyed-intake.md). */
  fixed_webhooks_enabled: z.boolean(),
  /** The fixed paths that accept alerts from anyone right now (no secret, token or topic set); empty when closed. */
  open_intake: z.array(z.object({ path: z.string(), settings_slug: z.string() })),
  /** The role of chat users created on first use (docs/integrations/slack.md#users). */
  chat_user_default_role: z.enum(['viewer', 'member']),
  /** Chat users who match no Firebreak user may act under their chat name (off: they are refused). */
  chat_allow_unmatched_users: z.boolean(),
  /** Storm mode (docs/api.md#storm-mode): incidents from alerts beyond the threshold join one storm incident. */
  storm_mode_enabled: z.boolean(),
  /** More incidents from alerts than this within `storm_window_minutes` starts a storm. */
  storm_threshold_incidents: z.number().int(),
  storm_window_minutes: z.number().int(),
  /** A storm ends when no alert joined it for this long, or when its incident is resolved. */
  storm_calm_minutes: z.number().int(),
  /**
   * A post-mortem is drafted by AI when an incident that lasted at least this many minutes is resolved
   * (0: every resolved incident; null: never automatically).
   */
  postmortem_auto_draft_min_minutes: z.number().int().nullable(),
  /** Messages people post in an incident channel become `chat_message` timeline entries. */
  chat_timeline_sync: z.boolean(),
  /** The public status page's heading (docs/status-page.md). */
  status_page_title: z.string(),
});
export type SettingsView = z.infer<typeof SettingsView>;

/**
 * `PATCH /api/v1/settings`: the installation's default escalation policy (null: none), and whether the
 * fixed webhook paths are served. Each field is optional; at least one must be given.
 */
export const UpdateSettingsInput = z
  .object({
    default_escalation_policy_id: z.uuid().nullable().optional(),
    fixed_webhooks_enabled: z.boolean().optional(),
    // Never admin: a chat profile's e-mail must not be enough to become an administrator.
    chat_user_default_role: z.enum(['viewer', 'member'], { error: 'must be viewer or member' }).optional(),
    chat_allow_unmatched_users: z.boolean().optional(),
    storm_mode_enabled: z.boolean().optional(),
    storm_threshold_incidents: stormNumber(stormSettingLimits.storm_threshold_incidents).optional(),
    storm_window_minutes: stormNumber(stormSettingLimits.storm_window_minutes).optional(),
    storm_calm_minutes: stormNumber(stormSettingLimits.storm_calm_minutes).optional(),
    postmortem_auto_draft_min_minutes: z
      .number({ error: 'must be a whole number of minutes, or null for never' })
      .int({ error: 'must be a whole number of minutes' })
      .min(0, { error: 'must be at least 0' })
      .max(followupSettingLimits.postmortem_auto_draft_max_minutes, {
        error: `must be at most ${followupSettingLimits.postmortem_auto_draft_max_minutes} (a week)`,
      })
      .nullable()
      .optional(),
    chat_timeline_sync: z.boolean().optional(),
    status_page_title: StatusPageTitle.optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message:
      'give at least one of default_escalation_policy_id, fixed_webhooks_enabled, chat_user_default_role, chat_allow_unmatched_users, storm_mode_enabled, storm_threshold_incidents, storm_window_minutes, storm_calm_minutes, postmortem_auto_draft_min_minutes, chat_timeline_sync, status_page_title',
  });
export type UpdateSettingsInput = z.infer<typeof UpdateSettingsInput>;
