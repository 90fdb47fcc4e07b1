import { z } from 'zod';

export const roles = ['admin', 'member', 'viewer'] as const;
export const Role = z.enum(roles);
export type Role = z.infer<typeof Role>;

// `oidc`: created by a first single sign-on (docs/sso.md).
export const authSources = ['local', 'chat', 'oidc'] as const;
export const AuthSource = z.enum(authSources);
export type AuthSource = z.infer<typeof AuthSource>;

export const LoginInput = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(1024),
});
export type LoginInput = z.infer<typeof LoginInput>;

export const CreateApiKeyInput = z.object({
  name: z.string().trim().min(1).max(200),
  role: Role.optional(),
});
export type CreateApiKeyInput = z.infer<typeof CreateApiKeyInput>;

/** The user as the API shows it (docs/api.md#on-call); never the password hash. */
export const User = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  role: Role,
  slack_user_id: z.string().nullable(),
  /** Their Microsoft Entra object id, for Teams (docs/teams.md#people). */
  teams_user_id: z.string().nullable(),
  auth_source: AuthSource,
  active: z.boolean(),
  /** Whether a chat message tells them when one of their shifts starts (docs/schedules.md#shift-notices). */
  shift_notices: z.boolean(),
  created_at: z.string(),
});
export type User = z.infer<typeof User>;

export const ApiKey = z.object({
  id: z.uuid(),
  name: z.string(),
  role: Role,
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  /**
   * The user the key acts for, as they are now: the key works only while they are active, and never
   * above their current role (docs/api.md#authentication). Null only for a key whose creator is gone.
   */
  created_by: z
    .object({ id: z.uuid(), name: z.string(), email: z.string(), role: Role, active: z.boolean() })
    .nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;
