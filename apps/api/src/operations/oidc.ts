import { answer, defineOperation, errorAnswers } from '@firebreak/http';
import { AuthConfig, OidcCallbackQuery } from '@firebreak/schema';

/** Single sign-on (docs/sso.md). Public: these are how someone without a session gets one. */
export const oidcOperations = {
  config: defineOperation({
    method: 'get',
    path: '/api/v1/auth/config',
    access: 'public',
    summary: 'How to log in: whether SSO is on and password login allowed (for the login page)',
    responses: { 200: answer('The login options', AuthConfig) },
  }),
  login: defineOperation({
    method: 'get',
    path: '/api/v1/auth/oidc/login',
    access: 'public',
    summary: 'Start single sign-on: redirects (302) to the identity provider',
    responses: {
      302: answer('To the provider; sets the short-lived, HttpOnly state cookie'),
      ...errorAnswers(404, 503),
    },
  }),
  callback: defineOperation({
    method: 'get',
    path: '/api/v1/auth/oidc/callback',
    access: 'public',
    summary:
      'Where the identity provider sends the browser back: opens a session, redirects (302) to the console',
    request: { query: OidcCallbackQuery },
    responses: {
      302: answer('Signed in: sets the session cookie as password login does'),
      ...errorAnswers(400, 401, 404, 409, 503),
    },
  }),
};
