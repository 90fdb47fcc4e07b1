import { z } from 'zod';

/** What the login page needs to know before anyone is logged in (docs/sso.md). */
export const AuthConfig = z.object({
  /** Single sign-on is configured: the page offers "Sign in with SSO". */
  sso_enabled: z.boolean(),
  /** Where the SSO button points; null when SSO is off. */
  sso_login_url: z.string().nullable(),
  /** False when `PASSWORD_LOGIN=false`: only the break-glass first admin may still use a password. */
  password_login: z.boolean(),
});
export type AuthConfig = z.infer<typeof AuthConfig>;

/**
 * The provider's redirect back. Either `code` (success) or `error` (the person or the provider refused)
 * comes with the `state` the sign-in started with; other parameters (`iss`, `session_state`, …) pass
 * through to the protocol checks.
 */
export const OidcCallbackQuery = z
  .object({
    state: z.string().min(1).max(512),
    code: z.string().min(1).max(4096).optional(),
    error: z.string().max(256).optional(),
    error_description: z.string().max(2048).optional(),
  })
  .loose()
  .refine((query) => query.code !== undefined || query.error !== undefined, {
    message: 'Either code or error is required.',
    path: ['code'],
  });
export type OidcCallbackQuery = z.infer<typeof OidcCallbackQuery>;
