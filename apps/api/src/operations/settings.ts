import { webhookIntegrations } from '@firebreak/domain';
import { answer, defineOperation, errorAnswers, jsonBody } from '@firebreak/http';
import {
  AlertmanagerSettingsInput,
  ChatSettingsView,
  CloudMonitorSettingsInput,
  GenericWebhookSettingsInput,
  GrafanaSettingsInput,
  SettingsView,
  UpdateSettingsInput,
} from '@firebreak/schema';
import type { z } from 'zod';

const { generic, alertmanager, grafana, cloudwatch } = webhookIntegrations;

/** Settings → Integrations: each PUT answers the whole view, where a secret shows only as set or not. */
function integrationSettings<S extends z.ZodType>(slug: string, summary: string, schema: S) {
  return defineOperation({
    method: 'put',
    path: `/api/v1/settings/integrations/${slug}`,
    access: 'admin',
    summary,
    request: { body: jsonBody(schema) },
    responses: { 200: answer('The settings', SettingsView), ...errorAnswers(400, 403, 415) },
  });
}

export const settingsOperations = {
  view: defineOperation({
    method: 'get',
    path: '/api/v1/settings',
    access: 'viewer',
    summary: 'The settings; secrets only say whether they are set',
    responses: { 200: answer('The settings', SettingsView) },
  }),
  update: defineOperation({
    method: 'patch',
    path: '/api/v1/settings',
    access: 'admin',
    summary: 'Set the default escalation policy, or turn the fixed webhook paths off or on',
    request: { body: jsonBody(UpdateSettingsInput) },
    responses: { 200: answer('The settings', SettingsView), ...errorAnswers(400, 403, 404, 415) },
  }),
  testChat: defineOperation({
    method: 'post',
    path: '/api/v1/settings/chat/test',
    access: 'admin',
    summary: 'Test the chat bot token with `auth.test` now',
    responses: { 200: answer('The chat part of the settings', ChatSettingsView), ...errorAnswers(403) },
  }),
  teamsAppPackage: defineOperation({
    method: 'get',
    path: '/api/v1/settings/chat/teams-app-package',
    access: 'admin',
    summary:
      'The Teams app package to upload to Teams (a zip: manifest and icons) for this installation’s bot',
    responses: {
      200: {
        description: 'The package',
        content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
      },
      ...errorAnswers(403, 409),
    },
  }),
  genericWebhook: integrationSettings(
    generic.settingsSlug,
    'The generic webhook’s signing secret (null removes it)',
    GenericWebhookSettingsInput,
  ),
  alertmanager: integrationSettings(
    alertmanager.settingsSlug,
    'The bearer token Alertmanager must send (null removes it)',
    AlertmanagerSettingsInput,
  ),
  grafana: integrationSettings(
    grafana.settingsSlug,
    'Grafana’s HMAC secret and optional timestamp header',
    GrafanaSettingsInput,
  ),
  cloudMonitor: integrationSettings(
    cloudwatch.settingsSlug,
    'The SNS topics allowed to deliver (null lifts the restriction)',
    CloudMonitorSettingsInput,
  ),
};
