import type { AppEnv } from '@firebreak/http';
import {
  AddNoteInput,
  ApiKey,
  CreateApiKeyInput,
  CreateIncidentInput,
  ErrorBody,
  Incident,
  IncidentList,
  ListIncidentsQuery,
  LoginInput,
  Readiness,
  TimelineEntry,
  UpdateIncidentInput,
  User,
} from '@firebreak/schema';
import type { Hono } from 'hono';
import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject } from 'zod-openapi';

/**
 * `GET /api/v1/openapi.json`: generated from the same zod schemas that validate the requests, so the
 * document cannot drift from the behaviour. Public, like the API's shape itself.
 */
export function addOpenApiRoute(app: Hono<AppEnv>): void {
  let document: ReturnType<typeof createDocument> | undefined;
  app.get('/api/v1/openapi.json', (c) => {
    document ??= buildDocument();
    return c.json(document);
  });
}

const json = (schema: z.ZodType) => ({ content: { 'application/json': { schema } } });
const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [String(s), { description: 'Error', ...json(ErrorBody) }]));
const ok = (status: number, description: string, schema?: z.ZodType) => ({
  [String(status)]: schema ? { description, ...json(schema) } : { description },
});
const incidentId = z.object({ id: z.string().meta({ description: 'Incident UUID or number' }) });
const bearer = [{ bearer: [] }];

function op(
  summary: string,
  responses: ZodOpenApiOperationObject['responses'],
  extra: Partial<ZodOpenApiOperationObject> = {},
): ZodOpenApiOperationObject {
  return { summary, security: bearer, ...extra, responses: { ...responses, ...errors(401, 429, 500) } };
}

export function buildDocument(): ReturnType<typeof createDocument> {
  return createDocument({
    openapi: '3.1.0',
    info: { title: 'Firebreak API', version: '1.0.0' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths: {
      '/ready': {
        get: {
          summary: 'Readiness',
          responses: { ...ok(200, 'Ready', Readiness), ...ok(503, 'Database down', Readiness) },
        },
      },
      '/health': {
        get: { summary: 'Liveness', responses: ok(200, 'Alive', z.object({ status: z.literal('ok') })) },
      },
      '/api/v1/auth/login': {
        post: {
          summary: 'Log in',
          requestBody: json(LoginInput),
          responses: {
            ...ok(200, 'Logged in', z.object({ token: z.string(), user: User, expires_at: z.string() })),
            ...errors(400, 401, 415),
          },
        },
      },
      '/api/v1/auth/logout': { post: op('End the session', ok(204, 'Logged out')) },
      '/api/v1/auth/me': {
        get: op('Who am I', ok(200, 'The caller', z.object({ kind: z.string(), role: z.string() }))),
      },
      '/api/v1/api-keys': {
        get: op('List API keys (admin)', {
          ...ok(200, 'Keys', z.object({ api_keys: z.array(ApiKey) })),
          ...errors(403),
        }),
        post: op(
          'Create an API key (admin); the token is shown once',
          { ...ok(201, 'Created', ApiKey.extend({ token: z.string() })), ...errors(400, 403) },
          { requestBody: json(CreateApiKeyInput) },
        ),
      },
      '/api/v1/api-keys/{id}': {
        delete: op(
          'Revoke an API key (admin)',
          { ...ok(204, 'Revoked'), ...errors(403, 404) },
          {
            requestParams: { path: z.object({ id: z.uuid() }) },
          },
        ),
      },
      '/api/v1/incidents': {
        get: op(
          'List incidents, newest first',
          { ...ok(200, 'A page', IncidentList), ...errors(400) },
          {
            requestParams: { query: ListIncidentsQuery },
          },
        ),
        post: op(
          'Open an incident',
          { ...ok(201, 'Created', Incident), ...errors(400, 403, 415) },
          {
            requestBody: json(CreateIncidentInput),
          },
        ),
      },
      '/api/v1/incidents/{id}': {
        get: op(
          'One incident',
          { ...ok(200, 'The incident', Incident), ...errors(404) },
          {
            requestParams: { path: incidentId },
          },
        ),
        patch: op(
          'Change status, severity, title, description or commander',
          { ...ok(200, 'The incident', Incident), ...errors(400, 403, 404, 409, 415) },
          { requestParams: { path: incidentId }, requestBody: json(UpdateIncidentInput) },
        ),
      },
      '/api/v1/incidents/{id}/timeline': {
        get: op(
          'The timeline, oldest first',
          { ...ok(200, 'Entries', z.object({ entries: z.array(TimelineEntry) })), ...errors(404) },
          {
            requestParams: { path: incidentId },
          },
        ),
      },
      '/api/v1/incidents/{id}/notes': {
        post: op(
          'Add a note',
          { ...ok(201, 'The note', TimelineEntry), ...errors(400, 403, 404, 409) },
          {
            requestParams: { path: incidentId },
            requestBody: json(AddNoteInput),
          },
        ),
      },
    },
  });
}
