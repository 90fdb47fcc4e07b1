import type { OnCallScheduleItem, OnCallShiftItem } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import { planSchedules, rankByLevel, scheduleZone, shiftsOf } from './schedules';
import type { ExistingRecords } from './types';
import type { People } from './users';

const people: People = new Map([['UA', { email: 'a@x.dev', name: 'Alice' }]]);
const nothing: ExistingRecords = { users: [], scheduleNames: [], policyNames: [], integrationKeys: [] };
const now = new Date('2026-06-01T00:00:00Z');
const schedule = (fields: Partial<OnCallScheduleItem> = {}): OnCallScheduleItem => ({
  id: 'S1',
  name: 'Primary',
  type: 'web',
  time_zone: 'Europe/Paris',
  shifts: [],
  ...fields,
});
const shift = (id: string, fields: Partial<OnCallShiftItem> = {}): OnCallShiftItem => ({
  id,
  name: id,
  type: 'rolling_users',
  level: 0,
  rotation_start: '2025-01-06T09:00:00',
  duration: 604800,
  frequency: 'weekly',
  rolling_users: [['UA']],
  ...fields,
});
const plan = (schedules: OnCallScheduleItem[], shifts: OnCallShiftItem[], existing = nothing) =>
  planSchedules(schedules, shifts, people, existing, now);

describe('schedules', () => {
  it('map name and time zone, UTC when the zone is empty', () => {
    const result = plan([schedule(), schedule({ id: 'S2', name: 'Other', time_zone: '' })], []);
    expect(result.schedules.map(({ name, timezone }) => ({ name, timezone }))).toEqual([
      { name: 'Primary', timezone: 'Europe/Paris' },
      { name: 'Other', timezone: 'UTC' },
    ]);
    expect(scheduleZone(schedule({ time_zone: null }))).toBe('UTC');
  });

  it('skip iCal-feed schedules with a warning, counted as skipped', () => {
    const result = plan([schedule({ type: 'ical', name: 'Holidays', shifts: undefined })], []);
    expect(result.schedules).toEqual([]);
    expect(result.skipped).toBe(1);
    expect(result.conflicts).toEqual([]);
    expect(result.warnings).toEqual([
      { kind: 'schedule', name: 'Holidays', message: expect.stringContaining('iCal') },
    ]);
  });

  it('skip a name that already exists, or that an earlier schedule of the run took, as a conflict', () => {
    const existing = { ...nothing, scheduleNames: ['Primary'] };
    const result = plan(
      [schedule(), schedule({ id: 'S2', name: 'Other' }), schedule({ id: 'S3', name: 'Other' })],
      [],
      existing,
    );
    expect(result.schedules.map((s) => s.sourceId)).toEqual(['S2']);
    expect(result.skipped).toBe(2);
    expect(result.conflicts).toEqual([
      { kind: 'schedule', name: 'Primary', reason: 'a schedule with this name already exists' },
      { kind: 'schedule', name: 'Other', reason: 'an earlier schedule in this import has the same name' },
    ]);
  });

  it('compare names exactly (a different case is a different name)', () => {
    const result = plan([schedule({ name: 'primary' })], [], { ...nothing, scheduleNames: ['Primary'] });
    expect(result.schedules).toHaveLength(1);
  });
});

describe('layers of a schedule', () => {
  it('come from the schedule shifts list, deduplicated; unknown ids are ignored', () => {
    const shifts = [shift('O1'), shift('O2'), shift('O1', { name: 'listed twice by the API' })];
    const found = shiftsOf(
      schedule({ shifts: ['O2', 'O1', 'O2', 'OGONE'] }),
      new Map(shifts.map((s) => [s.id, s])),
    );
    expect(found.map((s) => s.id)).toEqual(['O2', 'O1']);
  });

  it('come from the shift schedule field only when the schedule lists none', () => {
    const shifts = new Map([
      ['O1', shift('O1', { schedule: 'S1' })],
      ['O2', shift('O2', { schedule: 'S9' })],
    ]);
    expect(shiftsOf(schedule({ shifts: undefined }), shifts).map((s) => s.id)).toEqual(['O1']);
  });

  it('turn override shifts into overrides, not layers', () => {
    const result = plan(
      [schedule({ shifts: ['O1', 'O2'] })],
      [
        shift('O1'),
        shift('O2', {
          type: 'override',
          name: 'Alice covers Bruno',
          level: undefined,
          start: '2025-11-20T09:00:00',
          duration: 28_800,
          rolling_users: undefined,
          users: ['UA'],
        }),
      ],
    );
    expect(result.schedules[0]!.layers.map((l) => l.name)).toEqual(['O1']);
    expect(result.schedules[0]!.overrides).toEqual([
      {
        sourceId: 'O2',
        person: { email: 'a@x.dev', name: 'Alice' },
        // Wall-clock time in the schedule's zone (Paris, UTC+1 in November).
        startsAt: new Date('2025-11-20T08:00:00Z'),
        endsAt: new Date('2025-11-20T16:00:00Z'),
      },
    ]);
    expect(result.warnings).toEqual([]);
  });

  it('get order_index as the 0-based rank by level, ties in schedule order', () => {
    const result = plan(
      [schedule({ shifts: ['O1', 'O2', 'O3', 'O4'] })],
      [
        shift('O1', { level: 5 }),
        shift('O2', { level: 1 }),
        shift('O3', { level: 5 }),
        shift('O4', { level: 2 }),
      ],
    );
    expect(result.schedules[0]!.layers.map((l) => [l.name, l.orderIndex])).toEqual([
      ['O2', 0],
      ['O4', 1],
      ['O1', 2],
      ['O3', 3],
    ]);
    expect(rankByLevel([{ level: 1 }, { level: 0 }])).toEqual([{ level: 0 }, { level: 1 }]);
  });

  it('carry the warnings of their shifts under the schedule name', () => {
    const result = plan(
      [schedule({ shifts: ['O1'] })],
      [shift('O1', { frequency: 'daily', by_day: ['MO'] })],
    );
    expect(result.warnings).toEqual([
      {
        kind: 'schedule',
        name: 'Primary',
        message: "layer 'O1': by_day dropped, rotation approximated as daily",
      },
    ]);
  });
});
