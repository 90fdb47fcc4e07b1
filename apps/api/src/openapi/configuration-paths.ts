import {
  AlertmanagerSettingsInput,
  ApiKey,
  ChatSettingsView,
  CloudMonitorSettingsInput,
  CreateApiKeyInput,
  CreateRoutingRuleInput,
  GenericWebhookBody,
  GenericWebhookSettingsInput,
  GrafanaSettingsInput,
  LoginInput,
  Readiness,
  RoutingPreviewInput,
  RoutingRule,
  SettingsView,
  UpdateRoutingRuleInput,
  User,
} from '@firebreak/schema';
import { z } from 'zod';
import { errors, json, ok, op, type Paths } from './helpers';

const ruleId = z.object({ id: z.uuid() });
const intakeResult = z.object({
  received: z.number(),
  created: z.number(),
  updated: z.number(),
  resolved: z.number(),
  suppressed: z.number(),
  incidents_created: z.number(),
  alerts: z.array(
    z.object({
      id: z.uuid(),
      external_id: z.string().nullable(),
      status: z.string(),
      incident_id: z.uuid().nullable(),
    }),
  ),
});
const settingsPut = (summary: string, schema: z.ZodType) => ({
  put: op(
    summary,
    { ...ok(200, 'The settings', SettingsView), ...errors(400, 403) },
    { requestBody: json(schema) },
  ),
});

export const configurationPaths: Paths = {
  '/ready': {
    get: {
      summary: 'Readiness',
      responses: { ...ok(200, 'Ready or degraded', Readiness), ...ok(503, 'Database down', Readiness) },
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
      {
        requestBody: json(CreateApiKeyInput),
      },
    ),
  },
  '/api/v1/api-keys/{id}': {
    delete: op(
      'Revoke an API key (admin)',
      { ...ok(204, 'Revoked'), ...errors(403, 404) },
      { requestParams: { path: ruleId } },
    ),
  },
  '/api/v1/routing-rules': {
    get: op(
      'Routing rules in evaluation order',
      ok(200, 'Rules', z.object({ routing_rules: z.array(RoutingRule) })),
    ),
    post: op(
      'Create a rule (admin)',
      { ...ok(201, 'Created', RoutingRule), ...errors(400, 403) },
      { requestBody: json(CreateRoutingRuleInput) },
    ),
  },
  '/api/v1/routing-rules/preview': {
    post: op(
      'Which rule would take this alert (changes nothing)',
      ok(200, 'The outcome', z.object({ rule: RoutingRule.nullable(), outcome: z.string() })),
      {
        requestBody: json(RoutingPreviewInput),
      },
    ),
  },
  '/api/v1/routing-rules/{id}': {
    get: op(
      'One rule',
      { ...ok(200, 'The rule', RoutingRule), ...errors(404) },
      { requestParams: { path: ruleId } },
    ),
    patch: op(
      'Change a rule (admin)',
      { ...ok(200, 'The rule', RoutingRule), ...errors(400, 403, 404) },
      {
        requestParams: { path: ruleId },
        requestBody: json(UpdateRoutingRuleInput),
      },
    ),
    delete: op(
      'Delete a rule (admin)',
      { ...ok(204, 'Deleted'), ...errors(403, 404) },
      { requestParams: { path: ruleId } },
    ),
  },
  '/api/v1/settings': { get: op('Settings; secrets only as "set"', ok(200, 'The settings', SettingsView)) },
  '/api/v1/settings/chat/test': {
    post: op('Test the chat bot token with auth.test (admin)', {
      ...ok(200, 'The chat settings', ChatSettingsView),
      ...errors(403),
    }),
  },
  '/api/v1/settings/integrations/generic-webhook': settingsPut(
    'Generic webhook signing secret (admin)',
    GenericWebhookSettingsInput,
  ),
  '/api/v1/settings/integrations/metrics-alertmanager': settingsPut(
    'Alertmanager bearer token (admin)',
    AlertmanagerSettingsInput,
  ),
  '/api/v1/settings/integrations/dashboard-alerting': settingsPut(
    'Grafana HMAC secret (admin)',
    GrafanaSettingsInput,
  ),
  '/api/v1/settings/integrations/cloud-monitor': settingsPut(
    'SNS topics allowed to deliver (admin)',
    CloudMonitorSettingsInput,
  ),
  '/api/v1/webhooks/generic': {
    post: {
      summary: 'Generic alert webhook (X-Service-Signature when a secret is set)',
      requestBody: json(GenericWebhookBody),
      responses: { ...ok(200, 'Recorded', intakeResult), ...errors(400, 401, 413, 415, 503) },
    },
  },
};
