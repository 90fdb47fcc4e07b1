import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The eight read endpoints; each fixture file is named `<resource>.json` and holds one array. */
export const ONCALL_RESOURCES = [
  'users',
  'teams',
  'schedules',
  'on_call_shifts',
  'escalation_chains',
  'escalation_policies',
  'integrations',
  'alert_groups',
] as const;

export type OnCallResource = (typeof ONCALL_RESOURCES)[number];
export type OnCallItem = Record<string, unknown>;
export type OnCallDataSet = Record<OnCallResource, OnCallItem[]>;

export const isOnCallResource = (value: string): value is OnCallResource =>
  (ONCALL_RESOURCES as readonly string[]).includes(value);

/** Default page sizes (docs/integrations/grafana-oncall.md#pagination): users 100, everything else 50. */
export const defaultPageSize = (resource: OnCallResource): number => (resource === 'users' ? 100 : 50);

export function completeDataSet(data: Partial<OnCallDataSet>): OnCallDataSet {
  return Object.fromEntries(ONCALL_RESOURCES.map((r) => [r, [...(data[r] ?? [])]])) as OnCallDataSet;
}

/**
 * Reads `<dir>/<resource>.json` for every endpoint. A missing file is an empty endpoint (a test may ship
 * only the files it needs), but a directory without any of them is almost surely a wrong path, so that
 * throws rather than serving an empty organisation.
 */
export async function loadOnCallFixtures(dir: string): Promise<OnCallDataSet> {
  const data: Partial<OnCallDataSet> = {};
  for (const resource of ONCALL_RESOURCES) {
    const file = join(dir, `${resource}.json`);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    const parsed = JSON.parse(text) as unknown;
    if (!Array.isArray(parsed)) throw new Error(`${file}: expected a JSON array`);
    data[resource] = parsed as OnCallItem[];
  }
  if (Object.keys(data).length === 0) {
    throw new Error(`loadOnCallFixtures: no <resource>.json file in ${dir}`);
  }
  return completeDataSet(data);
}
