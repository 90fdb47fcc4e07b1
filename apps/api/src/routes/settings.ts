import { createChatAuthCheck } from '@firebreak/chat/auth-check';
import { type AppEnv, type RequireRole, readJson } from '@firebreak/http';
import {
  AlertmanagerSettingsInput,
  CloudMonitorSettingsInput,
  GenericWebhookSettingsInput,
  GrafanaSettingsInput,
  UpdateSettingsInput,
} from '@firebreak/schema';
import {
  type ChatAuthTest,
  type ConfiguredIntegrations,
  chatSettingsView,
  getSettingsView,
  type ServiceContext,
  setDefaultEscalationPolicy,
  writeIntegrationSecrets,
  writeSnsTopicAllowlist,
} from '@firebreak/services';
import type { Hono } from 'hono';
import type { ApiDeps } from '../deps';

/**
 * Settings → Integrations (spec §5.2, CONTRACT.md §6). Secrets go in, never out: the view only says
 * whether each is set. Admins write; members and viewers read the view.
 */
export function addSettingsRoutes(app: Hono<AppEnv>, deps: ApiDeps, requireRole: RequireRole): void {
  const { ctx, config } = deps;
  const chatAuth = createChatAuthCheck(config.chat);
  const configured = (chatAuthTest: ChatAuthTest | null): ConfiguredIntegrations => ({
    chatConfigured: config.chat.botToken !== undefined,
    chatSigningSecretSet: config.chat.signingSecret !== undefined,
    chatAuthTest,
    aiProvider: config.ai.provider,
  });
  const view = async (c: { json: (body: unknown) => Response }, context: ServiceContext) =>
    c.json(await getSettingsView(context, configured(await chatAuth.current())));

  app.get('/api/v1/settings', requireRole('viewer'), (c) => view(c, ctx));

  // Settings → Chat → Test: `auth.test` now, answered as the view's `chat` part (spec §5.3).
  app.post('/api/v1/settings/chat/test', requireRole('admin'), async (c) =>
    c.json(chatSettingsView(configured(await chatAuth.runNow()))),
  );

  app.patch('/api/v1/settings', requireRole('admin'), async (c) => {
    const input = await readJson(c, UpdateSettingsInput);
    await setDefaultEscalationPolicy(ctx, input.default_escalation_policy_id);
    return view(c, ctx);
  });

  app.put('/api/v1/settings/integrations/generic-webhook', requireRole('admin'), async (c) => {
    const input = await readJson(c, GenericWebhookSettingsInput);
    await writeIntegrationSecrets(ctx, { genericSigningSecret: input.signing_secret });
    return view(c, ctx);
  });

  app.put('/api/v1/settings/integrations/metrics-alertmanager', requireRole('admin'), async (c) => {
    const input = await readJson(c, AlertmanagerSettingsInput);
    await writeIntegrationSecrets(ctx, { alertmanagerBearerToken: input.bearer_token });
    return view(c, ctx);
  });

  app.put('/api/v1/settings/integrations/dashboard-alerting', requireRole('admin'), async (c) => {
    const input = await readJson(c, GrafanaSettingsInput);
    await writeIntegrationSecrets(ctx, {
      grafanaHmacSecret: input.hmac_secret,
      grafanaTimestampHeader: input.hmac_secret === null ? null : (input.timestamp_header ?? null),
    });
    return view(c, ctx);
  });

  app.put('/api/v1/settings/integrations/cloud-monitor', requireRole('admin'), async (c) => {
    const input = await readJson(c, CloudMonitorSettingsInput);
    await writeSnsTopicAllowlist(ctx, input.topic_arns);
    return view(c, ctx);
  });
}
