import { z } from 'zod';
import { Role } from './auth';
import { TEAMS_USER_ID_PATTERN } from './chat-platforms';

/**
 * Users, schedules and escalation policies as the API takes and shows them (docs/api.md#on-call).
 * The user object itself is `User` (auth.ts).
 */

const displayName = z.string().trim().min(1, 'must not be empty').max(200);
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WEEK_SECONDS = 7 * 86_400;

// Same check as the import and the on-call maths make (Intl's zone data, which luxon also reads), plus
// a shape test so offsets like "+01:00" or "GMT+1", which some runtimes accept, are refused: a fixed
// offset has no DST, which is rarely what someone setting up a rotation means.
const ianaShape = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;
export function isIanaTimeZone(name: string): boolean {
  if (!ianaShape.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const TimeZone = z
  .string()
  .trim()
  .max(64)
  .refine(isIanaTimeZone, 'must be an IANA time zone such as "Europe/Berlin" or "UTC"');

// E-mail is the login and the identity the import matches on; stored lowercased. Local
// names like admin@localhost are allowed, so only the shape is checked.
const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(320)
  .regex(/^[^\s@]+@[^\s@]+$/, 'must be an e-mail address');
/**
 * A chat (Slack) user id: `U…` or `W…` (Enterprise Grid), capitals and digits. Ids are put into
 * mentions (`<@id>`) verbatim, so anything else could smuggle markup such as `<!channel>` into chat.
 */
export const SLACK_USER_ID_PATTERN = /^[UW][A-Z0-9]{2,}$/;
const slackUserId = z
  .string()
  .trim()
  .max(64)
  .regex(SLACK_USER_ID_PATTERN, 'must be a chat user id such as U024BE7LH')
  .nullable();
/** A Teams user's Microsoft Entra object id (docs/teams.md#people), as Entra shows it. */
const teamsUserId = z
  .string()
  .trim()
  .toLowerCase()
  .regex(TEAMS_USER_ID_PATTERN, 'must be a Microsoft Entra object id (a GUID)')
  .nullable();
const password = z.string().min(8, 'must be at least 8 characters').max(1024);

export const CreateUserInput = z.object({
  email,
  name: displayName,
  role: Role,
  slack_user_id: slackUserId.optional(),
  teams_user_id: teamsUserId.optional(),
  password: password.optional(),
});
export type CreateUserInput = z.infer<typeof CreateUserInput>;

export const UpdateUserInput = z
  .object({
    email: email.optional(),
    name: displayName.optional(),
    role: Role.optional(),
    slack_user_id: slackUserId.optional(),
    teams_user_id: teamsUserId.optional(),
    active: z.boolean().optional(),
    password: password.optional(),
    shift_notices: z.boolean().optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message:
      'give at least one of email, name, role, slack_user_id, teams_user_id, active, password, shift_notices',
  });
export type UpdateUserInput = z.infer<typeof UpdateUserInput>;

export const RotationType = z.enum(['weekly', 'daily']);
export type RotationType = z.infer<typeof RotationType>;

/**
 * A participant as a client sends it: `{user_id}` or `{name}` (a user's display name), or a bare string
 * read as a user id when it looks like one, else as a name. `{user_id: null, name}` — what a read shows
 * for someone without an account — keeps that name unlinked. Given both, the id decides.
 */
export const ParticipantInput = z.preprocess(
  (value) =>
    typeof value === 'string' ? (uuidPattern.test(value) ? { user_id: value } : { name: value }) : value,
  z
    .object({ user_id: z.uuid().nullable().optional(), name: displayName.optional() })
    .refine((p) => p.user_id || p.name !== undefined, 'give user_id or name'),
);
export type ParticipantInput = z.infer<typeof ParticipantInput>;

export const LayerInput = z.object({
  name: displayName.default('Layer'),
  /** Defaults to the layer's position in the list. */
  order_index: z.int().min(0).max(10_000).optional(),
  /** ISO 8601; without an offset it is wall-clock time in the schedule's time zone. */
  rotation_start: z.iso.datetime({ offset: true, local: true }),
  shift_duration_seconds: z
    .int()
    .min(1)
    .max(366 * 86_400),
  /** Defaults to `weekly` for whole weeks, else `daily`. */
  rotation_type: RotationType.optional(),
  participants: z.array(ParticipantInput).max(200).default([]),
});
export type LayerInput = z.infer<typeof LayerInput>;

export function defaultRotationType(shiftDurationSeconds: number): RotationType {
  return shiftDurationSeconds % WEEK_SECONDS === 0 ? 'weekly' : 'daily';
}

const layers = z
  .array(LayerInput)
  .max(50)
  .superRefine((list, ctx) => {
    const seen = new Set<number>();
    list.forEach((layer, index) => {
      const order = layer.order_index ?? index;
      if (seen.has(order)) {
        ctx.addIssue({ code: 'custom', path: [index, 'order_index'], message: `${order} is used twice` });
      }
      seen.add(order);
    });
  });

export const CreateScheduleInput = z.object({
  name: displayName,
  timezone: TimeZone.default('UTC'),
  layers: layers.default([]),
});
export type CreateScheduleInput = z.infer<typeof CreateScheduleInput>;

/** PATCH: the fields given; `layers`, when given, replaces all layers. */
export const UpdateScheduleInput = z
  .object({ name: displayName.optional(), timezone: TimeZone.optional(), layers: layers.optional() })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: 'give at least one of name, timezone, layers',
  });
export type UpdateScheduleInput = z.infer<typeof UpdateScheduleInput>;

export const Participant = z.object({ user_id: z.uuid().nullable(), name: z.string() });
export type Participant = z.infer<typeof Participant>;

export const ScheduleLayer = z.object({
  name: z.string(),
  order_index: z.int(),
  rotation_start: z.string(),
  shift_duration_seconds: z.int(),
  rotation_type: RotationType,
  participants: z.array(Participant),
});
export type ScheduleLayer = z.infer<typeof ScheduleLayer>;

export const Schedule = z.object({
  id: z.uuid(),
  name: z.string(),
  timezone: z.string(),
  /** Lowest order_index first. */
  layers: z.array(ScheduleLayer),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Schedule = z.infer<typeof Schedule>;

export const OnCallQuery = z.object({
  // A `+` left unescaped in a query string arrives as a space (`?at=2026-03-29T09:00:00+02:00`).
  at: z
    .preprocess(
      (value) => (typeof value === 'string' ? value.replace(' ', '+') : value),
      z.iso.datetime({ offset: true }),
    )
    .optional(),
});
export type OnCallQuery = z.infer<typeof OnCallQuery>;

/** Someone on call; id, email and slack_user_id are null for a participant without an account. */
export const OnCallUser = z.object({
  id: z.uuid().nullable(),
  name: z.string(),
  email: z.string().nullable(),
  slack_user_id: z.string().nullable(),
});
export type OnCallUser = z.infer<typeof OnCallUser>;

export const OnCall = z.object({ users: z.array(OnCallUser) });
export type OnCall = z.infer<typeof OnCall>;

export const TargetType = z.enum(['users', 'schedule']);
export type TargetType = z.infer<typeof TargetType>;

/**
 * A tier as a client sends it. Users come as `user_ids` or `user_names`; when both are given they are
 * read as pairs, the way a read shows them, and a null id keeps that name without an account.
 */
export const TierInput = z
  .object({
    target_type: TargetType,
    user_ids: z.array(z.uuid().nullable()).max(50).optional(),
    user_names: z.array(displayName).max(50).optional(),
    schedule_id: z.uuid().nullable().optional(),
    /** How long the tier has to acknowledge before the next one is notified; the import's default. */
    timeout_seconds: z.int().min(1).max(WEEK_SECONDS).default(300),
  })
  .superRefine((tier, ctx) => {
    const issue = (path: PropertyKey[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const ids = tier.user_ids ?? [];
    const names = tier.user_names ?? [];
    if (tier.target_type === 'schedule') {
      if (!tier.schedule_id) issue(['schedule_id'], 'required when target_type is schedule');
      if (ids.length > 0) issue(['user_ids'], 'only for target_type users');
      if (names.length > 0) issue(['user_names'], 'only for target_type users');
      return;
    }
    if (tier.schedule_id) issue(['schedule_id'], 'only for target_type schedule');
    if (ids.length === 0 && names.length === 0) issue(['user_ids'], 'give user_ids or user_names');
    const paired = ids.length > 0 && names.length > 0;
    if (paired && ids.length !== names.length) {
      issue(['user_names'], 'must pair with user_ids: give as many names as ids, or only one of the two');
    }
    ids.forEach((id, index) => {
      if (id === null && !paired) issue(['user_ids', index], 'null needs the matching user_names entry');
    });
  });
export type TierInput = z.infer<typeof TierInput>;

const policyFields = {
  name: displayName,
  description: z.string().max(2000),
  enabled: z.boolean(),
  /** How many more times the tiers run after the last one timed out; bounded so paging ends. */
  repeat: z.int().min(0).max(10),
  tiers: z.array(TierInput).max(20),
};

export const CreateEscalationPolicyInput = z.object({
  name: policyFields.name,
  description: policyFields.description.default(''),
  enabled: policyFields.enabled.default(true),
  repeat: policyFields.repeat.default(0),
  tiers: policyFields.tiers.default([]),
});
export type CreateEscalationPolicyInput = z.infer<typeof CreateEscalationPolicyInput>;

/** PATCH: the fields given; `tiers`, when given, replaces all tiers. */
export const UpdateEscalationPolicyInput = z
  .object({
    name: policyFields.name.optional(),
    description: policyFields.description.optional(),
    enabled: policyFields.enabled.optional(),
    repeat: policyFields.repeat.optional(),
    tiers: policyFields.tiers.optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: 'give at least one of name, description, enabled, repeat, tiers',
  });
export type UpdateEscalationPolicyInput = z.infer<typeof UpdateEscalationPolicyInput>;

export const EscalationTier = z.object({
  target_type: TargetType,
  /** Parallel to user_names; null for a name without an account. Empty for a schedule tier. */
  user_ids: z.array(z.uuid().nullable()),
  user_names: z.array(z.string()),
  schedule_id: z.uuid().nullable(),
  timeout_seconds: z.int(),
});
export type EscalationTier = z.infer<typeof EscalationTier>;

export const EscalationPolicy = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  repeat: z.int(),
  /** In notification order. */
  tiers: z.array(EscalationTier),
  created_at: z.string(),
  updated_at: z.string(),
});
export type EscalationPolicy = z.infer<typeof EscalationPolicy>;
