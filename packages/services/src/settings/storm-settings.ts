import { type Queryable, settings, storms } from '@firebreak/db';
import { type SettingsView, stormSettingDefaults, type UpdateSettingsInput } from '@firebreak/schema';

/** Storm mode's settings as `GET /api/v1/settings` shows them (docs/api.md#storm-mode). */
export type StormSettings = Pick<
  SettingsView,
  'storm_mode_enabled' | 'storm_threshold_incidents' | 'storm_window_minutes' | 'storm_calm_minutes'
>;

const names = Object.keys(stormSettingDefaults) as (keyof StormSettings)[];

// The API's names are the rows' keys; the storm check in SQL reads the same rows.
const rowKeys: Record<keyof StormSettings, string> = {
  storm_mode_enabled: storms.stormSettingKeys.enabled,
  storm_threshold_incidents: storms.stormSettingKeys.thresholdIncidents,
  storm_window_minutes: storms.stormSettingKeys.windowMinutes,
  storm_calm_minutes: storms.stormSettingKeys.calmMinutes,
};

/** Each stored value of the right type, else its default. */
export function stormSettingsIn(values: Map<string, unknown>): StormSettings {
  const stored = (name: keyof StormSettings) => values.get(rowKeys[name]);
  const enabled = stored('storm_mode_enabled');
  const count = (name: Exclude<keyof StormSettings, 'storm_mode_enabled'>) => {
    const value = stored(name);
    return typeof value === 'number' && Number.isInteger(value) ? value : stormSettingDefaults[name];
  };
  return {
    storm_mode_enabled: typeof enabled === 'boolean' ? enabled : stormSettingDefaults.storm_mode_enabled,
    storm_threshold_incidents: count('storm_threshold_incidents'),
    storm_window_minutes: count('storm_window_minutes'),
    storm_calm_minutes: count('storm_calm_minutes'),
  };
}

/** The rows a PATCH changes (for the audit entry), in a fixed order. */
export function stormSettingKeysIn(input: UpdateSettingsInput): string[] {
  return names.filter((name) => input[name] !== undefined).map((name) => rowKeys[name]);
}

/** Writes the storm settings a PATCH gives, inside its transaction. */
export async function writeStormSettings(tx: Queryable, input: UpdateSettingsInput): Promise<void> {
  for (const name of names) {
    const value = input[name];
    if (value !== undefined) await settings.putSetting(tx, rowKeys[name], value);
  }
}
