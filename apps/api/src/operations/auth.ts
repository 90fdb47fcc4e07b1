import { answer, defineOperation, errorAnswers, jsonBody } from '@firebreak/http';
import {
  ApiKey,
  CreateApiKeyInput,
  LoginInput,
  PersonRef,
  Role,
  SetupPasswordInput,
  User,
} from '@firebreak/schema';
import { z } from 'zod';
import { IdParams } from './params';

export const authOperations = {
  login: defineOperation({
    method: 'post',
    path: '/api/v1/auth/login',
    access: 'public',
    summary: 'Log in: a session token, also set as the UI’s cookie',
    request: { body: jsonBody(LoginInput) },
    responses: {
      200: answer('Logged in', z.object({ token: z.string(), user: User, expires_at: z.string() })),
      // 429: too many failed logins for this address; 503: too many password checks at once.
      ...errorAnswers(400, 401, 403, 415, 429, 503),
    },
  }),
  logout: defineOperation({
    method: 'post',
    path: '/api/v1/auth/logout',
    access: 'viewer',
    summary: 'End the session',
    responses: { 204: answer('Logged out'), ...errorAnswers(403) },
  }),
  me: defineOperation({
    method: 'get',
    path: '/api/v1/auth/me',
    access: 'viewer',
    summary: 'Who am I',
    responses: {
      200: answer(
        'The caller; for an API key, `user` is the key’s creator, whose current role caps the key’s',
        z.object({ kind: z.enum(['session', 'api_key']), role: Role, user: PersonRef.nullable() }),
      ),
    },
  }),
  setup: defineOperation({
    method: 'post',
    path: '/api/v1/auth/setup',
    access: 'public',
    summary: 'Set the password of an imported user with their setup token (once, within 7 days)',
    request: { body: jsonBody(SetupPasswordInput) },
    responses: {
      200: answer('Password set; log in with it', z.object({ user: User })),
      ...errorAnswers(400, 401, 415, 503),
    },
  }),
};

/** API keys are credentials to the whole installation: only admins see or change them. */
export const apiKeyOperations = {
  create: defineOperation({
    method: 'post',
    path: '/api/v1/api-keys',
    access: 'admin',
    summary: 'Create an API key; its token is shown this once',
    request: { body: jsonBody(CreateApiKeyInput) },
    responses: {
      201: answer('Created', ApiKey.extend({ token: z.string() })),
      ...errorAnswers(400, 403, 415),
    },
  }),
  list: defineOperation({
    method: 'get',
    path: '/api/v1/api-keys',
    access: 'admin',
    summary: 'List API keys',
    responses: { 200: answer('Keys', z.object({ api_keys: z.array(ApiKey) })), ...errorAnswers(403) },
  }),
  revoke: defineOperation({
    method: 'delete',
    path: '/api/v1/api-keys/{id}',
    access: 'admin',
    summary: 'Revoke an API key',
    request: { params: IdParams },
    responses: { 204: answer('Revoked'), ...errorAnswers(403, 404) },
  }),
};
