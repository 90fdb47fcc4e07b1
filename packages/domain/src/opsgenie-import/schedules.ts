import { isIanaTimeZone, type OpsgenieOverrideItem, type OpsgenieScheduleItem } from '@firebreak/schema';
import type { ExistingRecords, Findings, PlannedLayer, PlannedSchedule } from '../oncall-import/types';
import { mapRotation, type RotationContext } from './rotations';

/**
 * Opsgenie schedules (docs/import-opsgenie.md#what-is-imported-and-how): a name clash is a conflict, each
 * rotation that has not ended one layer, overrides warned about (not brought across
 * yet; they can be recreated here with the overrides API or on the schedule page).
 *
 * Precedence: Opsgenie pages everyone on call in any rotation; a layer here wins over lower ones. The
 * rotation Opsgenie lists first (top of its schedule page) is taken as the main one and gets the highest
 * `order_index`, the last listed gets 0.
 */

export interface OpsgenieSchedulePlan extends Findings {
  schedules: PlannedSchedule[];
  /** Name clashes. */
  skipped: number;
}

export function planOpsgenieSchedules(
  source: readonly OpsgenieScheduleItem[],
  overrides: Readonly<Record<string, readonly OpsgenieOverrideItem[]>>,
  context: RotationContext,
  existing: Pick<ExistingRecords, 'scheduleNames'>,
): OpsgenieSchedulePlan {
  const existingNames = new Set(existing.scheduleNames);
  const taken = new Set<string>();
  const plan: OpsgenieSchedulePlan = { schedules: [], skipped: 0, conflicts: [], warnings: [] };
  for (const schedule of source) {
    const name = schedule.name.trim() || schedule.id;
    const warn = (message: string) => plan.warnings.push({ kind: 'schedule', name, message });
    if (existingNames.has(name) || taken.has(name)) {
      plan.skipped += 1;
      plan.conflicts.push({
        kind: 'schedule',
        name,
        reason: taken.has(name)
          ? 'an earlier schedule in this import has the same name'
          : 'a schedule with this name already exists',
      });
      continue;
    }
    taken.add(name);
    const zone = schedule.timezone?.trim();
    const timezone = zone && isIanaTimeZone(zone) ? zone : 'UTC';
    if (zone && timezone !== zone) warn(`unknown time zone "${zone}"; UTC used`);
    if (schedule.enabled === false) warn('disabled in Opsgenie; imported all the same');
    const layers: Omit<PlannedLayer, 'orderIndex'>[] = [];
    for (const [index, rotation] of (schedule.rotations ?? []).entries()) {
      const mapped = mapRotation(rotation, index, context);
      for (const message of mapped.notes) warn(message);
      if (mapped.layer) layers.push(mapped.layer);
    }
    if (layers.length > 1) {
      warn(
        `${layers.length} rotations: Opsgenie pages everyone on call in any of them; here, where they overlap, the one listed first wins`,
      );
    }
    if (layers.length === 0) warn('no rotation could be imported; nobody is on call until layers are added');
    for (const override of overrides[schedule.id] ?? []) warn(overrideNote(override));
    plan.schedules.push({
      sourceId: schedule.id,
      name,
      timezone,
      layers: layers.map((layer, index) => ({ ...layer, orderIndex: layers.length - 1 - index })),
    });
  }
  return plan;
}

export function overrideNote(override: OpsgenieOverrideItem): string {
  const who = override.user?.username || override.user?.name || override.user?.type || 'someone';
  const label = override.alias ? `override '${override.alias}'` : 'an override';
  return `${label} (${who}, ${override.startDate ?? '?'} to ${override.endDate ?? '?'}) not imported: overrides are not brought across yet; recreate it with the overrides API or on the schedule page`;
}
