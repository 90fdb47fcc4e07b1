import type { SettingsView } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { integrationSecrets } from './integrations';

export const DEFAULT_ESCALATION_POLICY_KEY = 'default_escalation_policy_id';

/** What the environment says about chat and AI (those are configured by environment, not the UI). */
export interface ConfiguredIntegrations {
  chatConfigured: boolean;
  aiProvider: string;
}

export async function getSettingsView(
  ctx: ServiceContext,
  configured: ConfiguredIntegrations,
): Promise<SettingsView> {
  const rows = await ctx.sql<{ key: string; value: unknown }[]>`select key, value from settings`;
  const values = new Map(rows.map((row) => [row.key, row.value]));
  const isSet = (key: string) => typeof values.get(key) === 'string';
  return {
    generic_webhook: { signing_secret_set: isSet(integrationSecrets.genericSigningSecret) },
    metrics_alertmanager: { bearer_token_set: isSet(integrationSecrets.alertmanagerBearerToken) },
    dashboard_alerting: {
      hmac_secret_set: isSet(integrationSecrets.grafanaHmacSecret),
      timestamp_header: (values.get(integrationSecrets.grafanaTimestampHeader) as string | undefined) ?? null,
    },
    cloud_monitor: {
      topic_arns: (values.get('integrations.cloud_monitor.topic_arns') as string[] | undefined) ?? null,
    },
    chat: { configured: configured.chatConfigured },
    ai: { provider: configured.aiProvider, configured: configured.aiProvider !== 'none' },
    default_escalation_policy_id: (values.get(DEFAULT_ESCALATION_POLICY_KEY) as string | undefined) ?? null,
  };
}
