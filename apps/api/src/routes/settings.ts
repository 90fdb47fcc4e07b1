import { createChatAuthCheck } from '@firebreak/chat-client';
import { changeOriginOf, type Operations } from '@firebreak/http';
import { AppError } from '@firebreak/schema';
import {
  type ChatAuthTest,
  type ConfiguredIntegrations,
  chatSettingsView,
  getSettingsView,
  updateSettings,
  writeIntegrationSecrets,
  writeSnsTopicAllowlist,
} from '@firebreak/services';
import type { ApiDeps } from '../deps';
import { settingsOperations as op } from '../operations/settings';
import { teamsAppPackage } from '../teams-app-package';

/**
 * Settings → Integrations. Secrets go in, never out: the view only says whether each is set. Admins
 * write; members and viewers read the view.
 */
export function addSettingsRoutes(ops: Operations, deps: ApiDeps): void {
  const { ctx, config } = deps;
  const chatAuth = createChatAuthCheck(config.chat);
  const configured = (chatAuthTest: ChatAuthTest | null): ConfiguredIntegrations => ({
    chatConfigured: config.chat.botToken !== undefined,
    chatSigningSecretSet: config.chat.signingSecret !== undefined,
    chatAuthTest,
    teamsTeamId: config.teams?.teamId ?? null,
    aiProvider: config.ai.provider,
  });
  const view = async (c: { json: (body: unknown) => Response }) =>
    c.json(await getSettingsView(ctx, configured(await chatAuth.current())));

  ops.add(op.view, (c) => view(c));

  ops.add(op.teamsAppPackage, async (c) => {
    if (!config.teams) {
      throw new AppError(
        'conflict',
        'Teams is not configured: set TEAMS_APP_ID, TEAMS_APP_PASSWORD, TEAMS_TENANT_ID and TEAMS_TEAM_ID first.',
      );
    }
    const publicUrl = config.publicUrl ?? new URL(c.req.url).origin;
    // A copy of the zip's bytes in an ArrayBuffer of their own, as a response body must be.
    return c.body(teamsAppPackage(config.teams, publicUrl).slice().buffer, 200, {
      'content-type': 'application/zip',
      'content-disposition': 'attachment; filename="firebreak-teams-app.zip"',
    });
  });

  // Settings → Chat → Test: `auth.test` now, answered as the view's `chat` part.
  ops.add(op.testChat, async (c) => c.json(chatSettingsView(configured(await chatAuth.runNow()))));

  ops.add(op.update, async (c, { body }) => {
    await updateSettings(ctx, body, changeOriginOf(c));
    return view(c);
  });

  ops.add(op.genericWebhook, async (c, { body }) => {
    await writeIntegrationSecrets(ctx, { genericSigningSecret: body.signing_secret }, changeOriginOf(c));
    return view(c);
  });

  ops.add(op.alertmanager, async (c, { body }) => {
    await writeIntegrationSecrets(ctx, { alertmanagerBearerToken: body.bearer_token }, changeOriginOf(c));
    return view(c);
  });

  ops.add(op.grafana, async (c, { body }) => {
    await writeIntegrationSecrets(
      ctx,
      {
        grafanaHmacSecret: body.hmac_secret,
        grafanaTimestampHeader: body.hmac_secret === null ? null : (body.timestamp_header ?? null),
      },
      changeOriginOf(c),
    );
    return view(c);
  });

  ops.add(op.cloudMonitor, async (c, { body }) => {
    await writeSnsTopicAllowlist(ctx, body.topic_arns, changeOriginOf(c));
    return view(c);
  });
}
