import type { OnCallShiftItem } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import {
  approximations,
  layerName,
  mapShift,
  participantIds,
  rotationTypeOf,
  shiftDurationSeconds,
  shiftZone,
} from './layers';
import type { People } from './users';

const people: People = new Map([
  ['UA', { email: 'a@x.dev', name: 'Alice' }],
  ['UB', { email: 'b@x.dev', name: 'Bruno' }],
  ['UF', { email: 'f@x.dev', name: 'farah' }],
]);
const now = new Date('2026-06-01T00:00:00Z');
const shift = (fields: Partial<OnCallShiftItem> = {}): OnCallShiftItem => ({
  id: 'O1',
  name: 'Primary',
  type: 'rolling_users',
  time_zone: null,
  level: 0,
  start: '2025-01-06T09:00:00',
  rotation_start: '2025-01-06T09:00:00',
  duration: 604800,
  frequency: 'weekly',
  interval: 1,
  until: null,
  by_day: null,
  by_month: null,
  by_monthday: null,
  rolling_users: [['UA'], ['UB']],
  ...fields,
});
const map = (fields: Partial<OnCallShiftItem>, scheduleZone = 'UTC') =>
  mapShift(shift(fields), { scheduleZone, people, now });

describe('layer name', () => {
  it('is the shift name, else "Layer"', () => {
    expect(layerName(shift())).toBe('Primary');
    expect(layerName(shift({ name: null }))).toBe('Layer');
    expect(layerName(shift({ name: ' ' }))).toBe('Layer');
  });
});

describe('rotation_start', () => {
  it('is the naive time read in the shift zone', () => {
    expect(map({ time_zone: 'America/New_York' }, 'Europe/Paris').layer!.rotationStart).toEqual(
      new Date('2025-01-06T14:00:00Z'),
    );
  });

  it('else in the schedule zone, else UTC', () => {
    expect(map({}, 'Europe/Paris').layer!.rotationStart).toEqual(new Date('2025-01-06T08:00:00Z'));
    expect(map({}).layer!.rotationStart).toEqual(new Date('2025-01-06T09:00:00Z'));
    expect(shiftZone(shift({ time_zone: 'Not/AZone' }), 'Asia/Tokyo')).toBe('Asia/Tokyo');
  });

  it('follows the zone offset of its own date (summer time)', () => {
    const layer = map({ rotation_start: '2025-07-07T09:00:00' }, 'Europe/Paris').layer!;
    expect(layer.rotationStart).toEqual(new Date('2025-07-07T07:00:00Z'));
  });

  it('falls back to start', () => {
    const layer = map({ rotation_start: null, start: '2025-03-01T10:00:00' }).layer!;
    expect(layer.rotationStart).toEqual(new Date('2025-03-01T10:00:00Z'));
  });

  it('without any start time the shift is not imported, with a note', () => {
    const mapped = map({ rotation_start: null, start: null });
    expect(mapped.layer).toBeUndefined();
    expect(mapped.notes).toEqual([expect.stringContaining('no valid start time')]);
  });
});

describe('shift_duration_seconds', () => {
  it('is the duration in seconds, one week when 0', () => {
    expect(shiftDurationSeconds(shift({ duration: 43200 }))).toBe(43200);
    expect(shiftDurationSeconds(shift({ duration: 0 }))).toBe(604800);
    expect(shiftDurationSeconds(shift({ duration: null }))).toBe(604800);
  });
});

describe('rotation_type', () => {
  it('keeps weekly and daily; any other frequency becomes weekly', () => {
    expect(rotationTypeOf('weekly')).toBe('weekly');
    expect(rotationTypeOf('daily')).toBe('daily');
    expect(rotationTypeOf('hourly')).toBe('weekly');
    expect(rotationTypeOf('monthly')).toBe('weekly');
    expect(rotationTypeOf(null)).toBe('weekly');
  });
});

describe('participants', () => {
  it('are rolling_users flattened in rotation order', () => {
    expect(participantIds(shift({ rolling_users: [['UB', 'UF'], ['UA']] }))).toEqual(['UB', 'UF', 'UA']);
  });

  it('start at start_rotation_from_user_index', () => {
    const ids = participantIds(
      shift({ rolling_users: [['UA'], ['UB'], ['UF']], start_rotation_from_user_index: 1 }),
    );
    expect(ids).toEqual(['UB', 'UF', 'UA']);
  });

  it('are users when rolling_users is empty or absent', () => {
    expect(participantIds(shift({ rolling_users: [], users: ['UF', 'UA'] }))).toEqual(['UF', 'UA']);
    expect(participantIds(shift({ rolling_users: null, users: ['UA'] }))).toEqual(['UA']);
  });

  it('resolve to display names through the user map; an unknown id stays as the name, with a warning', () => {
    const mapped = map({ rolling_users: [['UA'], ['UGONE']] });
    expect(mapped.layer!.participants).toEqual([
      { email: 'a@x.dev', name: 'Alice' },
      { email: null, name: 'UGONE' },
    ]);
    expect(mapped.notes).toEqual([expect.stringMatching(/participant UGONE is not an imported user/)]);
  });
});

describe('recurrence approximation', () => {
  it('warns once per layer about what a back-to-back rotation cannot express', () => {
    const mapped = map({ frequency: 'daily', by_day: ['MO', 'TU'] });
    expect(mapped.notes).toEqual(["layer 'Primary': by_day dropped, rotation approximated as daily"]);
    expect(mapped.layer!.rotationType).toBe('daily');
  });

  it('names every dropped part', () => {
    const notes = approximations(
      shift({
        frequency: 'monthly',
        interval: 2,
        by_month: [1],
        by_monthday: [3],
        until: '2030-01-01T00:00:00',
      }),
    );
    expect(notes).toEqual([
      'frequency monthly dropped',
      'interval 2 dropped',
      'by_month dropped',
      'by_monthday dropped',
      'end 2030-01-01T00:00:00 dropped',
    ]);
  });

  it('says a one-off shift now repeats, and that a group on call together now takes turns', () => {
    expect(
      approximations(shift({ type: 'single_event', frequency: undefined, rolling_users: undefined })),
    ).toEqual(['a one-off shift now repeats']);
    expect(approximations(shift({ rolling_users: [['UA', 'UB']] }))).toEqual([
      'users on call together now take turns',
    ]);
  });

  it('is silent for a plain weekly or daily rotation', () => {
    expect(map({}).notes).toEqual([]);
  });

  it('a rotation that already ended (until in the past) is not imported', () => {
    const mapped = map({ until: '2025-03-01T00:00:00' });
    expect(mapped.layer).toBeUndefined();
    expect(mapped.notes).toEqual([
      expect.stringContaining('rotation ended 2025-03-01T00:00:00; not imported'),
    ]);
  });
});
