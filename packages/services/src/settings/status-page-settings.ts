import { type Queryable, settingKeys, settings } from '@firebreak/db';
import { DEFAULT_STATUS_PAGE_TITLE, type UpdateSettingsInput } from '@firebreak/schema';

/** `status_page_title`: the public status page's heading (docs/status-page.md#set-up). */
export function statusPageTitleIn(values: Map<string, unknown>): string {
  const stored = values.get(settingKeys.statusPageTitle);
  return typeof stored === 'string' && stored.length > 0 ? stored : DEFAULT_STATUS_PAGE_TITLE;
}

/** Reads the one row the public page needs, not every setting. */
export async function readStatusPageTitle(sql: Queryable): Promise<string> {
  const stored = await settings.getSetting<unknown>(sql, settingKeys.statusPageTitle);
  return statusPageTitleIn(new Map([[settingKeys.statusPageTitle, stored]]));
}

/** The rows a PATCH changes (for the audit entry). */
export function statusPageSettingKeysIn(input: UpdateSettingsInput): string[] {
  return input.status_page_title !== undefined ? [settingKeys.statusPageTitle] : [];
}

/** Writes the title a PATCH gives, inside its transaction. */
export async function writeStatusPageSettings(tx: Queryable, input: UpdateSettingsInput): Promise<void> {
  if (input.status_page_title !== undefined)
    await settings.putSetting(tx, settingKeys.statusPageTitle, input.status_page_title);
}
