import { isIanaTimeZone, type OnCallScheduleItem, type OnCallShiftItem } from '@firebreak/schema';
import { mapShift } from './layers';
import { mapOverride } from './overrides';
import type { ExistingRecords, Findings, PlannedLayer, PlannedOverride, PlannedSchedule } from './types';
import type { People } from './users';

/**
 * Schedules (docs/import-oncall.md#what-is-imported-and-how): iCal feeds skipped with a warning, name clashes
 * skipped as conflicts, each override shift an override, each other shift of the schedule one layer,
 * ranked by `level`.
 */

export interface SchedulePlan extends Findings {
  schedules: PlannedSchedule[];
  /** iCal schedules and name clashes. */
  skipped: number;
}

export function scheduleZone(schedule: OnCallScheduleItem): string {
  const zone = schedule.time_zone?.trim();
  return zone && isIanaTimeZone(zone) ? zone : 'UTC';
}

/**
 * The schedule's own shifts, each once, in its order. Membership comes from the schedule's `shifts`
 * (a shift's `schedule` names only the first of several); ids `/on_call_shifts` does not return are
 * ignored. Only without a `shifts` list does the shift's `schedule` decide.
 */
export function shiftsOf(
  schedule: OnCallScheduleItem,
  shifts: ReadonlyMap<string, OnCallShiftItem>,
): OnCallShiftItem[] {
  const ids =
    schedule.shifts ?? [...shifts.values()].filter((s) => s.schedule === schedule.id).map((s) => s.id);
  return [...new Set(ids)].flatMap((id) => shifts.get(id) ?? []);
}

/** `order_index` is the 0-based rank by level ascending; ties keep the schedule's order. */
export function rankByLevel<T extends { level: number }>(items: readonly T[]): T[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => a.item.level - b.item.level || a.index - b.index)
    .map(({ item }) => item);
}

export function planSchedules(
  source: readonly OnCallScheduleItem[],
  sourceShifts: readonly OnCallShiftItem[],
  people: People,
  existing: ExistingRecords,
  now: Date,
): SchedulePlan {
  const shifts = new Map<string, OnCallShiftItem>();
  for (const shift of sourceShifts) if (!shifts.has(shift.id)) shifts.set(shift.id, shift);
  const existingNames = new Set(existing.scheduleNames);
  const taken = new Set<string>();
  const plan: SchedulePlan = { schedules: [], skipped: 0, conflicts: [], warnings: [] };
  for (const schedule of source) {
    const name = schedule.name?.trim() || schedule.id;
    if (schedule.type === 'ical') {
      plan.skipped += 1;
      plan.warnings.push({
        kind: 'schedule',
        name,
        message: 'iCal-feed schedule not imported: this service reads no calendar feeds',
      });
      continue;
    }
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
    const timezone = scheduleZone(schedule);
    if (schedule.time_zone?.trim() && timezone !== schedule.time_zone.trim()) {
      plan.warnings.push({
        kind: 'schedule',
        name,
        message: `unknown time zone "${schedule.time_zone}"; UTC used`,
      });
    }
    const mapped = [];
    const overrides: PlannedOverride[] = [];
    for (const shift of shiftsOf(schedule, shifts)) {
      if (shift.type === 'override') {
        const result = mapOverride(shift, { scheduleZone: timezone, people });
        for (const message of result.notes) plan.warnings.push({ kind: 'schedule', name, message });
        if (result.override) overrides.push(result.override);
        continue;
      }
      const result = mapShift(shift, { scheduleZone: timezone, people, now });
      for (const message of result.notes) plan.warnings.push({ kind: 'schedule', name, message });
      if (result.layer) mapped.push({ ...result.layer, level: result.level });
    }
    const layers: PlannedLayer[] = rankByLevel(mapped).map(({ level: _, ...layer }, orderIndex) => ({
      ...layer,
      orderIndex,
    }));
    plan.schedules.push({ sourceId: schedule.id, name, timezone, layers, overrides });
  }
  return plan;
}
