import { settings } from '@firebreak/db';
import { webhookIntegrations } from '@firebreak/domain';
import { type ChangeOrigin, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { auditedSettingsWrite } from './audited-write';

/**
 * Webhook credentials, one settings row each. They are stored as given: verifying an HMAC needs the
 * secret itself, and a key to encrypt it with would sit beside it (the database is the boundary to
 * protect). They are never returned by the API and never logged. The rows are named in the table of
 * webhook integrations.
 */
export const integrationSecrets = {
  genericSigningSecret: webhookIntegrations.generic.settingKeys.signingSecret,
  alertmanagerBearerToken: webhookIntegrations.alertmanager.settingKeys.bearerToken,
  grafanaHmacSecret: webhookIntegrations.grafana.settingKeys.hmacSecret,
  grafanaTimestampHeader: webhookIntegrations.grafana.settingKeys.timestampHeader,
} as const;

const snsTopicsKey = webhookIntegrations.cloudwatch.settingKeys.topicArns;

/**
 * The SNS topics allowed to deliver to the cloud-monitor webhook. A valid SNS signature only proves a
 * message came from SNS, not from *our* topic: anyone can subscribe our URL to a topic of their own.
 * Null means "not restricted" (the first set-up, before the operator knows the topic ARN).
 */
export async function readSnsTopicAllowlist(ctx: ServiceContext): Promise<string[] | null> {
  return (await settings.getSetting<string[]>(ctx.sql, snsTopicsKey)) ?? null;
}

export async function writeSnsTopicAllowlist(
  ctx: ServiceContext,
  topics: string[] | null,
  origin: ChangeOrigin = systemOrigin,
): Promise<void> {
  await ctx.sql.begin((tx) =>
    auditedSettingsWrite(tx, ctx, origin, 'integrations', [snsTopicsKey], async () => {
      if (topics === null) await settings.deleteSetting(tx, snsTopicsKey);
      else await settings.putSetting(tx, snsTopicsKey, topics);
    }),
  );
  ctx.logger.info({ topics: topics?.length ?? null }, 'integration settings changed');
}

export type IntegrationSecret = keyof typeof integrationSecrets;

export async function readIntegrationSecret(
  ctx: ServiceContext,
  name: IntegrationSecret,
): Promise<string | null> {
  return (await settings.getSetting<string>(ctx.sql, integrationSecrets[name])) ?? null;
}

export async function writeIntegrationSecrets(
  ctx: ServiceContext,
  values: Partial<Record<IntegrationSecret, string | null>>,
  origin: ChangeOrigin = systemOrigin,
): Promise<void> {
  const given = (Object.entries(values) as Array<[IntegrationSecret, string | null | undefined]>).filter(
    ([, value]) => value !== undefined,
  );
  const keys = given.map(([name]) => integrationSecrets[name]);
  await ctx.sql.begin((tx) =>
    auditedSettingsWrite(tx, ctx, origin, 'integrations', keys, async () => {
      for (const [name, value] of given) {
        if (value === null || value === undefined) await settings.deleteSetting(tx, integrationSecrets[name]);
        else await settings.putSetting(tx, integrationSecrets[name], value);
      }
    }),
  );
  ctx.logger.info({ changed: Object.keys(values) }, 'integration settings changed');
}
