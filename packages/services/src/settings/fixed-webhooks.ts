import { settingKeys, settings } from '@firebreak/db';
import { webhookIntegrations } from '@firebreak/domain';
import type { ServiceContext } from '../context';

// Every fixed-path request asks; a few seconds of staleness is the price of not reading the settings
// table per alert. Another process sees a change within this time; this process at once (the write
// forgets its cached answer: forgetFixedWebhooksEnabled).
const CACHE_TTL_MS = 5000;
const cache = new WeakMap<object, { enabled: boolean; readAt: number }>();

const isEnabled = (value: unknown) => value !== false;

/** Whether the four fixed `/api/v1/webhooks/*` paths accept alerts (default true). */
export async function fixedWebhooksEnabled(ctx: Pick<ServiceContext, 'sql'>): Promise<boolean> {
  const cached = cache.get(ctx.sql);
  if (cached && performance.now() - cached.readAt < CACHE_TTL_MS) return cached.enabled;
  const enabled = isEnabled(await settings.getSetting<boolean>(ctx.sql, settingKeys.fixedWebhooksEnabled));
  cache.set(ctx.sql, { enabled, readAt: performance.now() });
  return enabled;
}

/** After a change of the setting (updateSettings): this process reads it afresh at once. */
export function forgetFixedWebhooksEnabled(ctx: Pick<ServiceContext, 'sql'>): void {
  cache.delete(ctx.sql);
}

export interface OpenIntakePath {
  path: string;
  settings_slug: string;
}

const { generic, alertmanager, grafana, cloudwatch } = webhookIntegrations;

/**
 * The fixed paths anyone can post alerts to, from all settings rows: while the fixed paths are on, each
 * whose credential is unset. For CloudWatch that is the topic allowlist: a valid SNS signature proves
 * only that SNS sent the message, and anyone can subscribe the URL to a topic of their own.
 */
export function openIntakePaths(values: ReadonlyMap<string, unknown>): OpenIntakePath[] {
  if (!isEnabled(values.get(settingKeys.fixedWebhooksEnabled))) return [];
  const unset = (key: string) => values.get(key) === undefined || values.get(key) === null;
  const open = [
    unset(generic.settingKeys.signingSecret) && generic,
    unset(alertmanager.settingKeys.bearerToken) && alertmanager,
    unset(grafana.settingKeys.hmacSecret) && grafana,
    unset(cloudwatch.settingKeys.topicArns) && cloudwatch,
  ];
  return open
    .filter((webhook) => webhook !== false)
    .map((webhook) => ({ path: webhook.path, settings_slug: webhook.settingsSlug }));
}

export function fixedWebhooksEnabledIn(values: ReadonlyMap<string, unknown>): boolean {
  return isEnabled(values.get(settingKeys.fixedWebhooksEnabled));
}
