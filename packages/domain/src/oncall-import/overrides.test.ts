import type { OnCallShiftItem } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import { mapOverride } from './overrides';
import type { People } from './users';

const people: People = new Map([
  ['UA', { email: 'a@x.dev', name: 'Alice' }],
  ['UB', { email: 'b@x.dev', name: 'Bruno' }],
  ['UN', { email: null, name: 'Nameless' }],
]);
const override = (fields: Partial<OnCallShiftItem> = {}): OnCallShiftItem => ({
  id: 'OV1',
  name: 'Alice covers Bruno',
  type: 'override',
  time_zone: null,
  start: '2026-03-29T01:00:00',
  duration: 4 * 3600,
  users: ['UA'],
  ...fields,
});
const map = (shift: OnCallShiftItem, scheduleZone = 'Europe/Berlin') =>
  mapOverride(shift, { scheduleZone, people });

describe('OnCall override shifts', () => {
  it('become one override of the window, in the shift’s zone, else the schedule’s; across a DST change', () => {
    // 01:00 CET on the day clocks go forward, for 4 hours of real time: to 06:00 CEST.
    expect(map(override())).toEqual({
      override: {
        sourceId: 'OV1',
        person: { email: 'a@x.dev', name: 'Alice' },
        startsAt: new Date('2026-03-29T00:00:00Z'),
        endsAt: new Date('2026-03-29T04:00:00Z'),
      },
      notes: [],
    });
    expect(map(override({ time_zone: 'America/New_York' })).override?.startsAt).toEqual(
      new Date('2026-03-29T05:00:00Z'),
    );
    expect(map(override({ start: '2026-03-29T01:00:00Z' })).override?.startsAt).toEqual(
      new Date('2026-03-29T01:00:00Z'),
    );
  });

  it('keep the first of several people, with a warning', () => {
    const result = map(override({ users: ['UB', 'UA'] }));
    expect(result.override?.person.name).toBe('Bruno');
    expect(result.notes).toEqual([
      "override 'Alice covers Bruno': only Bruno imported; here an override puts one person on call",
    ]);
  });

  it('are skipped, with a warning, without a user here, a start, a duration or anyone, or too long', () => {
    const cases: Array<[Partial<OnCallShiftItem>, string]> = [
      [{ users: ['UN'] }, 'user UN is not an imported user'],
      [{ users: ['UZ'] }, 'user UZ is not an imported user'],
      [{ start: 'soon', rotation_start: undefined }, 'no valid start time'],
      [{ duration: null }, 'no duration'],
      [{ users: [] }, 'nobody on call'],
      [{ duration: 91 * 86_400 }, 'longer than 90 days, the most an override may last'],
    ];
    for (const [fields, why] of cases) {
      expect(map(override(fields))).toEqual({
        notes: [`override 'Alice covers Bruno': ${why}; not imported`],
      });
    }
  });
});
