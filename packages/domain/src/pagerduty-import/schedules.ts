import { isIanaTimeZone, type PagerDutyOverrideItem, type PagerDutyScheduleItem } from '@firebreak/schema';
import type { ExistingRecords, Findings, PlannedLayer, PlannedSchedule } from '../oncall-import/types';
import { mapLayer } from './layers';
import { type Directory, resolveUser } from './users';

/**
 * PagerDuty schedules (docs/import-pagerduty.md#what-is-imported-and-how): a name that exists here is a
 * conflict; each layer that has not ended becomes a layer; overrides are not brought across yet (they
 * can be recreated here with the overrides API or on the schedule page), each one a warning.
 *
 * Precedence: where PagerDuty layers overlap, the higher layer wins ("Layer 2" over "Layer 1"), and the API
 * lists `schedule_layers` highest first — the reverse of the order they were created and are numbered
 * in. Here the highest `order_index` wins, so the LAST layer of the API's list gets `order_index` 0.
 */

export interface SchedulePlan extends Findings {
  schedules: PlannedSchedule[];
  /** Name clashes. */
  skipped: number;
}

export function pagerDutyScheduleZone(schedule: PagerDutyScheduleItem): string {
  const zone = schedule.time_zone?.trim();
  return zone && isIanaTimeZone(zone) ? zone : 'UTC';
}

export function planPagerDutySchedules(
  source: readonly PagerDutyScheduleItem[],
  overrides: Readonly<Record<string, readonly PagerDutyOverrideItem[]>>,
  directory: Directory,
  existing: Pick<ExistingRecords, 'scheduleNames'>,
  now: Date,
): SchedulePlan {
  const existingNames = new Set(existing.scheduleNames);
  const taken = new Set<string>();
  const plan: SchedulePlan = { schedules: [], skipped: 0, conflicts: [], warnings: [] };
  for (const schedule of source) {
    const name = schedule.name?.trim() || schedule.id;
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
    const warn = (message: string) => plan.warnings.push({ kind: 'schedule', name, message });
    const timezone = pagerDutyScheduleZone(schedule);
    if (schedule.time_zone?.trim() && timezone !== schedule.time_zone.trim()) {
      warn(`unknown time zone "${schedule.time_zone}"; UTC used`);
    }
    // Bottom (Layer 1) first, so that order_index rises with PagerDuty's precedence.
    const bottomFirst = [...(schedule.schedule_layers ?? [])].reverse();
    const layers: PlannedLayer[] = [];
    bottomFirst.forEach((layer, position) => {
      const mapped = mapLayer(layer, layer.name?.trim() || `Layer ${position + 1}`, {
        directory,
        now,
        timezone,
      });
      for (const message of mapped.notes) warn(message);
      if (mapped.layer) layers.push({ ...mapped.layer, orderIndex: layers.length });
    });
    if (layers.length === 0)
      warn('no layer could be imported; the schedule has nobody on call until layers are added');
    for (const override of overrides[schedule.id] ?? []) {
      const who = resolveUser(override.user, directory).person.name;
      warn(
        `override ${who} from ${override.start} to ${override.end} not imported: overrides are not brought across yet; recreate it with the overrides API or on the schedule page`,
      );
    }
    plan.schedules.push({ sourceId: schedule.id, name, timezone, layers });
  }
  return plan;
}
