import { describe, expect, it } from 'vitest';
import { isOutOfHours, utcDaysOf } from './analytics';

describe('isOutOfHours', () => {
  it('office hours are 09:00 to 18:00, Monday to Friday', () => {
    expect(isOutOfHours({ isoWeekday: 1, hour: 9 })).toBe(false);
    expect(isOutOfHours({ isoWeekday: 5, hour: 17 })).toBe(false);
    expect(isOutOfHours({ isoWeekday: 1, hour: 8 })).toBe(true);
    expect(isOutOfHours({ isoWeekday: 3, hour: 18 })).toBe(true);
    expect(isOutOfHours({ isoWeekday: 2, hour: 0 })).toBe(true);
  });

  it('the weekend is out of hours all day', () => {
    expect(isOutOfHours({ isoWeekday: 6, hour: 12 })).toBe(true);
    expect(isOutOfHours({ isoWeekday: 7, hour: 10 })).toBe(true);
  });
});

describe('utcDaysOf', () => {
  it('lists every UTC day the window touches, the end excluded', () => {
    expect(utcDaysOf(new Date('2026-11-02T00:00:00Z'), new Date('2026-11-05T00:00:00Z'))).toEqual([
      '2026-11-02',
      '2026-11-03',
      '2026-11-04',
    ]);
  });

  it('a window inside one day, or across midnight, names each day once', () => {
    expect(utcDaysOf(new Date('2026-11-02T09:30:00Z'), new Date('2026-11-02T10:30:00Z'))).toEqual([
      '2026-11-02',
    ]);
    expect(utcDaysOf(new Date('2026-11-02T23:00:00Z'), new Date('2026-11-03T00:00:01Z'))).toEqual([
      '2026-11-02',
      '2026-11-03',
    ]);
  });
});
