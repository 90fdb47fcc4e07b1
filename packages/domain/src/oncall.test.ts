import { describe, expect, it } from 'vitest';
import { followsWallClock, onCallAt, type RotationLayer, upcomingShifts } from './oncall';

const DAY = 86_400;
const HOUR = 3_600;

function layer(
  participants: string[],
  rotationStart: string,
  shiftDurationSeconds: number,
  orderIndex = 0,
): RotationLayer<string> {
  return {
    participants,
    rotation_start: new Date(rotationStart),
    shift_duration_seconds: shiftDurationSeconds,
    order_index: orderIndex,
  };
}

function who(timezone: string, layers: RotationLayer<string>[], at: string): string | undefined {
  return onCallAt({ timezone, layers }, new Date(at))?.participant;
}

/** Hand-over instants (ISO, UTC) of the first `count` turns from `from`. */
function handovers(timezone: string, rotation: RotationLayer<string>, from: string, count: number): string[] {
  return upcomingShifts({ timezone, layers: [rotation] }, new Date(from), count).map((s) =>
    s.start.toISOString(),
  );
}

describe('a single layer', () => {
  const daily = layer(['ana', 'ben', 'cai'], '2026-01-05T09:00:00Z', DAY);

  it('hands over every shift_duration_seconds in list order, round and round', () => {
    expect(who('UTC', [daily], '2026-01-05T09:00:00Z')).toBe('ana');
    expect(who('UTC', [daily], '2026-01-06T08:59:59.999Z')).toBe('ana');
    expect(who('UTC', [daily], '2026-01-06T09:00:00Z')).toBe('ben');
    expect(who('UTC', [daily], '2026-01-07T12:00:00Z')).toBe('cai');
    expect(who('UTC', [daily], '2026-01-08T09:00:00Z')).toBe('ana');
    expect(who('UTC', [daily], '2027-01-05T09:00:00Z')).toBe('cai'); // 365 turns later
  });

  it('has nobody before rotation_start, or without participants', () => {
    expect(who('UTC', [daily], '2026-01-05T08:59:59.999Z')).toBeUndefined();
    expect(who('UTC', [layer([], '2026-01-01T00:00:00Z', DAY)], '2026-02-01T00:00:00Z')).toBeUndefined();
    expect(who('UTC', [], '2026-02-01T00:00:00Z')).toBeUndefined();
  });

  it('reports the turn it found: who, which turn, from when until when', () => {
    const shift = onCallAt({ timezone: 'UTC', layers: [daily] }, new Date('2026-01-09T10:00:00Z'));
    expect(shift).toMatchObject({ participant: 'ben', participant_index: 1, turn: 4, layer: daily });
    expect(shift?.start.toISOString()).toBe('2026-01-09T09:00:00.000Z');
    expect(shift?.end.toISOString()).toBe('2026-01-10T09:00:00.000Z');
  });

  it('keeps a single participant on call turn after turn', () => {
    const solo = layer(['solo'], '2026-01-01T00:00:00Z', 7 * DAY);
    for (const at of ['2026-01-01T00:00:00Z', '2026-06-30T23:00:00Z', '2030-01-01T00:00:00Z']) {
      expect(who('Europe/Berlin', [solo], at)).toBe('solo');
    }
    expect(onCallAt({ timezone: 'UTC', layers: [solo] }, new Date('2026-01-20T00:00:00Z'))?.turn).toBe(2);
  });

  it('lets one person take several turns in a cycle', () => {
    const uneven = layer(['ana', 'ben', 'ana', 'cai'], '2026-01-05T00:00:00Z', DAY);
    const names = upcomingShifts({ timezone: 'UTC', layers: [uneven] }, new Date('2026-01-05T00:00:00Z'), 5);
    expect(names.map((s) => s.participant)).toEqual(['ana', 'ben', 'ana', 'cai', 'ana']);
  });
});

describe('layers', () => {
  const base = layer(['ana', 'ben'], '2026-01-05T09:00:00Z', 7 * DAY, 0);
  const holiday = layer(['cai'], '2026-01-20T00:00:00Z', DAY, 1);

  it('the highest order_index with someone on call wins, whatever the list order', () => {
    expect(who('UTC', [holiday, base], '2026-01-19T23:59:59Z')).toBe('ana');
    expect(who('UTC', [holiday, base], '2026-01-20T00:00:00Z')).toBe('cai');
    expect(who('UTC', [base, holiday], '2026-03-01T00:00:00Z')).toBe('cai');
  });

  it('skips a higher layer that has nobody', () => {
    const empty = layer([], '2026-01-01T00:00:00Z', DAY, 5);
    expect(who('UTC', [base, empty], '2026-01-06T00:00:00Z')).toBe('ana');
  });

  it('ends a lower layer turn when a higher layer starts', () => {
    const shift = onCallAt({ timezone: 'UTC', layers: [base, holiday] }, new Date('2026-01-19T12:00:00Z'));
    expect(shift?.participant).toBe('ana');
    expect(shift?.start.toISOString()).toBe('2026-01-19T09:00:00.000Z');
    expect(shift?.end.toISOString()).toBe('2026-01-20T00:00:00.000Z');
  });
});

describe('time zones and DST (hand-overs keep the wall-clock time)', () => {
  it('daily at 09:00 Berlin across the spring-forward (29 March 2026)', () => {
    const daily = layer(['ana', 'ben'], '2026-03-27T08:00:00Z', DAY); // 09:00 CET
    expect(handovers('Europe/Berlin', daily, '2026-03-27T08:00:00Z', 4)).toEqual([
      '2026-03-27T08:00:00.000Z',
      '2026-03-28T08:00:00.000Z', // 09:00 CET
      '2026-03-29T07:00:00.000Z', // 09:00 CEST: that turn was 23 hours
      '2026-03-30T07:00:00.000Z',
    ]);
    expect(who('Europe/Berlin', [daily], '2026-03-29T06:59:59Z')).toBe('ben');
    expect(who('Europe/Berlin', [daily], '2026-03-29T07:00:00Z')).toBe('ana');
  });

  it('daily at 09:00 Berlin across the fall-back (25 October 2026)', () => {
    const daily = layer(['ana', 'ben'], '2026-10-23T07:00:00Z', DAY); // 09:00 CEST
    expect(handovers('Europe/Berlin', daily, '2026-10-24T07:00:00Z', 3)).toEqual([
      '2026-10-24T07:00:00.000Z',
      '2026-10-25T08:00:00.000Z', // 09:00 CET: that turn was 25 hours
      '2026-10-26T08:00:00.000Z',
    ]);
    expect(who('Europe/Berlin', [daily], '2026-10-25T07:30:00Z')).toBe('ben');
  });

  it('weekly on Monday 09:00 New York across both changes of 2026', () => {
    const weekly = layer(['ana', 'ben', 'cai'], '2026-03-02T14:00:00Z', 7 * DAY); // 09:00 EST
    expect(handovers('America/New_York', weekly, '2026-03-02T14:00:00Z', 2)).toEqual([
      '2026-03-02T14:00:00.000Z',
      '2026-03-09T13:00:00.000Z', // 09:00 EDT
    ]);
    expect(who('America/New_York', [weekly], '2026-03-09T12:59:00Z')).toBe('ana');
    expect(who('America/New_York', [weekly], '2026-03-09T13:00:00Z')).toBe('ben');
    // 34 weeks on: Monday 26 October (EDT) then Monday 2 November (EST)
    expect(handovers('America/New_York', weekly, '2026-10-26T13:00:00Z', 2)).toEqual([
      '2026-10-26T13:00:00.000Z',
      '2026-11-02T14:00:00.000Z',
    ]);
    expect(who('America/New_York', [weekly], '2026-11-02T13:30:00Z')).toBe('ben');
    expect(who('America/New_York', [weekly], '2026-11-02T14:00:00Z')).toBe('cai');
  });

  it('daily at 09:00 New York and weekly in Berlin, a year of hand-overs at the same local time', () => {
    const cases = [
      { zone: 'America/New_York', start: '2026-01-01T14:00:00Z', step: DAY, count: 366, local: '09:00' },
      { zone: 'Europe/Berlin', start: '2026-01-05T08:00:00Z', step: 7 * DAY, count: 53, local: '09:00' },
    ];
    for (const { zone, start, step, count, local } of cases) {
      const starts = upcomingShifts(
        { timezone: zone, layers: [layer(['a', 'b'], start, step)] },
        new Date(start),
        count,
      );
      const times = new Set(starts.map((s) => localTime(s.start, zone)));
      expect(times).toEqual(new Set([local]));
      expectContiguous(starts);
    }
  });

  it('8-hour shifts keep 06:00, 14:00 and 22:00 local; the night of the change is 7 hours', () => {
    const shifts = layer(['ana', 'ben', 'cai'], '2026-03-28T05:00:00Z', 8 * HOUR); // 06:00 CET
    expect(handovers('Europe/Berlin', shifts, '2026-03-28T05:00:00Z', 5)).toEqual([
      '2026-03-28T05:00:00.000Z', // 06:00 CET
      '2026-03-28T13:00:00.000Z', // 14:00 CET
      '2026-03-28T21:00:00.000Z', // 22:00 CET
      '2026-03-29T04:00:00.000Z', // 06:00 CEST
      '2026-03-29T12:00:00.000Z', // 14:00 CEST
    ]);
  });

  it('lengths that do not divide a day run on absolute seconds', () => {
    expect(followsWallClock(36 * HOUR)).toBe(false);
    expect(followsWallClock(7 * HOUR)).toBe(false);
    expect(followsWallClock(12 * HOUR) && followsWallClock(14 * DAY) && followsWallClock(1800)).toBe(true);
    const odd = layer(['ana', 'ben'], '2026-03-28T00:00:00Z', 36 * HOUR);
    expect(handovers('Europe/Berlin', odd, '2026-03-28T00:00:00Z', 3)).toEqual([
      '2026-03-28T00:00:00.000Z',
      '2026-03-29T12:00:00.000Z',
      '2026-03-31T00:00:00.000Z',
    ]);
  });

  it('a hand-over at a skipped wall time happens when the clock jumps', () => {
    const night = layer(['ana', 'ben'], '2026-03-27T01:30:00Z', DAY); // 02:30 CET
    expect(handovers('Europe/Berlin', night, '2026-03-28T01:30:00Z', 3)).toEqual([
      '2026-03-28T01:30:00.000Z',
      '2026-03-29T01:00:00.000Z', // 02:30 does not exist: 03:00 CEST
      '2026-03-30T00:30:00.000Z', // 02:30 CEST
    ]);
  });

  it('a hand-over at a repeated wall time happens the first time', () => {
    const night = layer(['ana', 'ben'], '2026-10-23T00:30:00Z', DAY); // 02:30 CEST
    expect(handovers('Europe/Berlin', night, '2026-10-24T00:30:00Z', 3)).toEqual([
      '2026-10-24T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z', // 02:30 CEST, not the second 02:30 (CET) an hour later
      '2026-10-26T01:30:00.000Z', // 02:30 CET
    ]);
  });

  it('short shifts across a skipped hour stay in order and leave no hole', () => {
    const halfHours = layer(['a', 'b', 'c'], '2026-03-28T12:00:00Z', 1800);
    const shifts = upcomingShifts(
      { timezone: 'Europe/Berlin', layers: [halfHours] },
      new Date('2026-03-29T00:00:00Z'),
      6,
    );
    expect(shifts.map((s) => localTime(s.start, 'Europe/Berlin'))).toEqual([
      '01:00',
      '01:30',
      '03:00', // 02:00 and 02:30 never happen
      '03:30',
      '04:00',
      '04:30',
    ]);
    expectContiguous(shifts);
  });

  it('refuses a zone it does not know', () => {
    expect(() =>
      who('Mars/Olympus_Mons', [layer(['a'], '2026-01-01T00:00:00Z', DAY)], '2026-02-01T00:00:00Z'),
    ).toThrow(RangeError);
  });
});

describe('upcomingShifts', () => {
  it('starts with the running turn, then follows precedence and skips the gap before any layer starts', () => {
    const base = layer(['ana', 'ben'], '2026-01-10T00:00:00Z', DAY, 0);
    const cover = layer(['cai'], '2026-01-12T12:00:00Z', 7 * DAY, 1);
    const shifts = upcomingShifts(
      { timezone: 'UTC', layers: [base, cover] },
      new Date('2026-01-01T00:00:00Z'),
      5,
    );
    expect(shifts.map((s) => [s.participant, s.start.toISOString(), s.end.toISOString()])).toEqual([
      ['ana', '2026-01-10T00:00:00.000Z', '2026-01-11T00:00:00.000Z'],
      ['ben', '2026-01-11T00:00:00.000Z', '2026-01-12T00:00:00.000Z'],
      ['ana', '2026-01-12T00:00:00.000Z', '2026-01-12T12:00:00.000Z'],
      ['cai', '2026-01-12T12:00:00.000Z', '2026-01-19T12:00:00.000Z'],
      ['cai', '2026-01-19T12:00:00.000Z', '2026-01-26T12:00:00.000Z'],
    ]);
  });

  it('gives the turn running at `from` with its real start', () => {
    const daily = layer(['ana', 'ben'], '2026-01-10T00:00:00Z', DAY);
    const [first] = upcomingShifts({ timezone: 'UTC', layers: [daily] }, new Date('2026-01-11T15:00:00Z'), 1);
    expect(first?.start.toISOString()).toBe('2026-01-11T00:00:00.000Z');
  });

  it('ends when nobody will ever be on call', () => {
    expect(
      upcomingShifts({ timezone: 'UTC', layers: [layer([], '2026-01-01T00:00:00Z', DAY)] }, new Date(), 3),
    ).toEqual([]);
  });
});

/** Each shift starts when the one before ends. */
function expectContiguous(shifts: Array<{ start: Date; end: Date }>): void {
  for (let i = 1; i < shifts.length; i++) expect(shifts[i]!.start).toEqual(shifts[i - 1]!.end);
}

function localTime(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(instant);
}

describe('invariants over a year, in zones with odd clock changes', () => {
  // Lord Howe moves by 30 minutes; Apia skipped 30 December 2011 entirely; Kolkata has no DST.
  const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Pacific/Apia', 'Asia/Kolkata'];
  const lengths = [1800, 8 * HOUR, 12 * HOUR, DAY, 7 * DAY, 36 * HOUR, 7 * HOUR];

  it('turns follow each other without hole or overlap, and each instant finds its own turn', () => {
    for (const timezone of zones) {
      for (const length of lengths) {
        const from = timezone === 'Pacific/Apia' ? '2011-06-01T00:00:00Z' : '2026-01-01T00:00:00Z';
        const rotation = layer(['a', 'b', 'c'], from, length);
        const count = Math.min(800, Math.ceil((366 * DAY) / length));
        const shifts = upcomingShifts({ timezone, layers: [rotation] }, new Date(from), count);
        expect(shifts).toHaveLength(count);
        shifts.forEach((shift, i) => {
          expect(shift.end.getTime()).toBeGreaterThan(shift.start.getTime());
          if (i > 0) expect(shift.start).toEqual(shifts[i - 1]!.end);
          const middle = new Date((shift.start.getTime() + shift.end.getTime()) / 2);
          expect(onCallAt({ timezone, layers: [rotation] }, middle)?.turn).toBe(shift.turn);
        });
      }
    }
  });
});
