import type { Queryable } from './client';

/**
 * The names of the installation's settings rows, in one place (SQL elsewhere in this package reads
 * some of them too). Webhook credentials are named by the integrations that use them.
 */
export const settingKeys = {
  /** The escalation policy of incidents whose routing rule names none. */
  defaultEscalationPolicy: 'default_escalation_policy_id',
  /** The SNS topics the cloud-monitor webhook accepts (unset: any topic). */
  cloudMonitorTopics: 'integrations.cloud_monitor.topic_arns',
} as const;

export async function getSetting<T>(sql: Queryable, key: string): Promise<T | undefined> {
  const [row] = await sql<{ value: T }[]>`select value from settings where key = ${key}`;
  return row?.value;
}

export async function putSetting(sql: Queryable, key: string, value: unknown): Promise<void> {
  await sql`
    insert into settings (key, value) values (${key}, ${sql.json(value as never)})
    on conflict (key) do update set value = excluded.value, updated_at = now()`;
}

export async function deleteSetting(sql: Queryable, key: string): Promise<void> {
  await sql`delete from settings where key = ${key}`;
}

/** Every setting, keyed by name (Settings reads them all at once). */
export async function listSettings(sql: Queryable): Promise<Map<string, unknown>> {
  const rows = await sql<{ key: string; value: unknown }[]>`select key, value from settings`;
  return new Map(rows.map((row) => [row.key, row.value]));
}
