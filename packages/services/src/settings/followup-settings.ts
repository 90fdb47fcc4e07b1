import { type Queryable, settingKeys, settings } from '@firebreak/db';
import { followupSettingDefaults, type SettingsView, type UpdateSettingsInput } from '@firebreak/schema';
import type { ServiceContext } from '../context';

/** What happens around an incident: automatic post-mortem drafts and the chat-to-timeline copy. */
export type FollowupSettings = Pick<SettingsView, 'postmortem_auto_draft_min_minutes' | 'chat_timeline_sync'>;

const rowKeys: Record<keyof FollowupSettings, string> = {
  postmortem_auto_draft_min_minutes: settingKeys.postmortemAutoDraftMinMinutes,
  chat_timeline_sync: settingKeys.chatTimelineSync,
};
const names = Object.keys(rowKeys) as (keyof FollowupSettings)[];

// A settings row holds JSON that is never SQL null, so "never" is stored as this word.
const never = 'never';

/** Each stored value of the right type, else its default. */
export function followupSettingsIn(values: Map<string, unknown>): FollowupSettings {
  const minutes = values.get(rowKeys.postmortem_auto_draft_min_minutes);
  const sync = values.get(rowKeys.chat_timeline_sync);
  return {
    postmortem_auto_draft_min_minutes:
      minutes === never
        ? null
        : typeof minutes === 'number' && Number.isInteger(minutes)
          ? minutes
          : followupSettingDefaults.postmortem_auto_draft_min_minutes,
    chat_timeline_sync: typeof sync === 'boolean' ? sync : followupSettingDefaults.chat_timeline_sync,
  };
}

/** Reads the two settings (one query) for the code that acts on them. */
export async function readFollowupSettings(ctx: Pick<ServiceContext, 'sql'>): Promise<FollowupSettings> {
  return followupSettingsIn(await settings.listSettings(ctx.sql));
}

/** The rows a PATCH changes (for the audit entry), in a fixed order. */
export function followupSettingKeysIn(input: UpdateSettingsInput): string[] {
  return names.filter((name) => input[name] !== undefined).map((name) => rowKeys[name]);
}

/** Writes the settings a PATCH gives, inside its transaction. */
export async function writeFollowupSettings(tx: Queryable, input: UpdateSettingsInput): Promise<void> {
  for (const name of names) {
    const value = input[name];
    if (value !== undefined) await settings.putSetting(tx, rowKeys[name], value === null ? never : value);
  }
}
