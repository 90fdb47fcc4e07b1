import { settingKeys, settings } from '@firebreak/db';
import { webhookIntegrations } from '@firebreak/domain';
import type { SettingsView } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { chatUserSettingsIn } from './chat-users';
import { fixedWebhooksEnabledIn, openIntakePaths } from './fixed-webhooks';
import { followupSettingsIn } from './followup-settings';
import { integrationSecrets } from './integrations';
import { statusPageTitleIn } from './status-page-settings';
import { stormSettingsIn } from './storm-settings';

/**
 * The bot token checked against the chat service's `auth.test` (docs/chat.md#set-up); never the token itself.
 */
export type ChatAuthTest =
  | { ok: true; team: string; user: string; bot_id: string }
  | { ok: false; error: string };

/** Settings → Chat: what the environment configures and whether the chat service accepts the token. */
export interface ChatSettingsView {
  /** CHAT_BOT_TOKEN is set: the chat integration is on. */
  configured: boolean;
  /** CHAT_SIGNING_SECRET is set: without it every inbound chat request is refused. */
  signing_secret_set: boolean;
  /** The latest `auth.test` answer (at most a minute old); null when chat is off. */
  auth_test: ChatAuthTest | null;
}

/** What the environment says about chat and AI (those are configured by environment, not the UI). */
export interface ConfiguredIntegrations {
  chatConfigured: boolean;
  chatSigningSecretSet?: boolean;
  chatAuthTest?: ChatAuthTest | null;
  /** The team of Teams' incident channels; null when Teams is not configured (docs/teams.md). */
  teamsTeamId?: string | null;
  aiProvider: string;
}

export function chatSettingsView(configured: ConfiguredIntegrations): ChatSettingsView {
  return {
    configured: configured.chatConfigured,
    signing_secret_set: configured.chatSigningSecretSet ?? false,
    auth_test: configured.chatAuthTest ?? null,
  };
}

export async function getSettingsView(
  ctx: ServiceContext,
  configured: ConfiguredIntegrations,
): Promise<SettingsView> {
  const values = await settings.listSettings(ctx.sql);
  const isSet = (key: string) => typeof values.get(key) === 'string';
  // A variable, not a literal: SettingsView's schema still lists only `configured` (see ChatSettingsView).
  const chat: SettingsView['chat'] = chatSettingsView(configured);
  return {
    generic_webhook: { signing_secret_set: isSet(integrationSecrets.genericSigningSecret) },
    metrics_alertmanager: { bearer_token_set: isSet(integrationSecrets.alertmanagerBearerToken) },
    dashboard_alerting: {
      hmac_secret_set: isSet(integrationSecrets.grafanaHmacSecret),
      timestamp_header: (values.get(integrationSecrets.grafanaTimestampHeader) as string | undefined) ?? null,
    },
    cloud_monitor: {
      topic_arns:
        (values.get(webhookIntegrations.cloudwatch.settingKeys.topicArns) as string[] | undefined) ?? null,
    },
    chat,
    teams: { configured: Boolean(configured.teamsTeamId), team_id: configured.teamsTeamId ?? null },
    ai: { provider: configured.aiProvider, configured: configured.aiProvider !== 'none' },
    default_escalation_policy_id:
      (values.get(settingKeys.defaultEscalationPolicy) as string | undefined) ?? null,
    fixed_webhooks_enabled: fixedWebhooksEnabledIn(values),
    open_intake: openIntakePaths(values),
    chat_user_default_role: chatUserSettingsIn(values).defaultRole,
    chat_allow_unmatched_users: chatUserSettingsIn(values).allowUnmatched,
    ...stormSettingsIn(values),
    ...followupSettingsIn(values),
    status_page_title: statusPageTitleIn(values),
  };
}
