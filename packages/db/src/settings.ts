import type { Queryable } from './client';

/**
 * The names of the installation's own settings rows (SQL elsewhere in this package reads some of them
 * too). A webhook's rows are named in the domain's table of webhook integrations, beside its path.
 */
export const settingKeys = {
  /** The escalation policy of incidents whose routing rule names none. */
  defaultEscalationPolicy: 'default_escalation_policy_id',
  /** False turns the fixed `/api/v1/webhooks/*` paths off (absent: on, the historic behaviour). */
  fixedWebhooksEnabled: 'fixed_webhooks_enabled',
  /** The role of chat users created on first use: `viewer` or `member` (absent: member). */
  chatUserDefaultRole: 'chat_user_default_role',
  /** True lets chat users who match no Firebreak user act under their chat name (absent: refused). */
  chatAllowUnmatchedUsers: 'chat_allow_unmatched_users',
  /** The id of the admin the first start created: the only password login left with PASSWORD_LOGIN=false. */
  breakGlassUserId: 'break_glass_user_id',
  /** Minutes an incident must have lasted for its resolution to queue a post-mortem draft (null: never). */
  postmortemAutoDraftMinMinutes: 'postmortem_auto_draft_min_minutes',
  /** True copies people's messages in incident channels into the timeline as `chat_message` entries. */
  chatTimelineSync: 'chat_timeline_sync',
  /** The public status page's heading (absent: "Service status"). */
  statusPageTitle: 'status_page_title',
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
