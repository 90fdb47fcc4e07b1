import { describe, expect, it } from 'vitest';
import { onCallAt, TooManyShiftsError } from './oncall';
import {
  continuousSpans,
  finalOnCallAt,
  finalShifts,
  type OnCallPerson,
  type ScheduleOverride,
} from './oncall-overrides';

const DAY = 86_400;
const HOUR = 3_600;
const person = (name: string): OnCallPerson => ({ user_id: `id-${name}`, name });
const [ana, ben, cai, dev] = ['ana', 'ben', 'cai', 'dev'].map(person) as [
  OnCallPerson,
  OnCallPerson,
  OnCallPerson,
  OnCallPerson,
];

function schedule(timezone: string, rotationStart: string, seconds: number, people = [ana, ben]) {
  return {
    timezone,
    layers: [
      {
        name: 'Primary',
        order_index: 0,
        rotation_start: new Date(rotationStart),
        shift_duration_seconds: seconds,
        participants: people,
      },
    ],
  };
}

let seq = 0;
function override(
  who: OnCallPerson,
  startsAt: string,
  endsAt: string,
  replaces: OnCallPerson | null = null,
  createdAt = `2026-01-01T00:00:${String(seq % 60).padStart(2, '0')}Z`,
): ScheduleOverride {
  seq += 1;
  return {
    id: `o${seq}`,
    person: who,
    replaces_user_id: replaces?.user_id ?? null,
    starts_at: new Date(startsAt),
    ends_at: new Date(endsAt),
    created_at: new Date(createdAt),
  };
}

const spans = (shifts: ReturnType<typeof finalShifts>) =>
  shifts.map((s) => [s.person.name, s.start.toISOString(), s.end.toISOString(), s.source]);

describe('finalShifts', () => {
  const daily = schedule('UTC', '2026-01-05T09:00:00Z', DAY);

  it('without overrides: the layer turns, clipped to the window', () => {
    const shifts = finalShifts(daily, [], new Date('2026-01-05T12:00:00Z'), new Date('2026-01-07T00:00:00Z'));
    expect(spans(shifts)).toEqual([
      ['ana', '2026-01-05T12:00:00.000Z', '2026-01-06T09:00:00.000Z', 'layer'],
      ['ben', '2026-01-06T09:00:00.000Z', '2026-01-07T00:00:00.000Z', 'layer'],
    ]);
    expect(shifts[0]?.layer_name).toBe('Primary');
  });

  it('merges turns of the same person in a row into one span', () => {
    const solo = schedule('UTC', '2026-01-05T09:00:00Z', DAY, [ana]);
    const shifts = finalShifts(solo, [], new Date('2026-01-05T09:00:00Z'), new Date('2026-01-08T09:00:00Z'));
    expect(spans(shifts)).toEqual([['ana', '2026-01-05T09:00:00.000Z', '2026-01-08T09:00:00.000Z', 'layer']]);
  });

  it('a whole-window override beats the layer, whoever is on call', () => {
    const o = override(cai, '2026-01-06T06:00:00Z', '2026-01-06T12:00:00Z');
    const shifts = finalShifts(
      daily,
      [o],
      new Date('2026-01-06T00:00:00Z'),
      new Date('2026-01-06T18:00:00Z'),
    );
    expect(spans(shifts)).toEqual([
      ['ana', '2026-01-06T00:00:00.000Z', '2026-01-06T06:00:00.000Z', 'layer'],
      ['cai', '2026-01-06T06:00:00.000Z', '2026-01-06T12:00:00.000Z', 'override'],
      ['ben', '2026-01-06T12:00:00.000Z', '2026-01-06T18:00:00.000Z', 'layer'],
    ]);
    expect(shifts[1]?.override_id).toBe(o.id);
  });

  it('a replacing override takes only that person’s time inside its window', () => {
    // Ana until 09:00 on the 6th, then Ben: "Cai covers Ana" from 06:00 to 12:00 ends at 09:00.
    const o = override(cai, '2026-01-06T06:00:00Z', '2026-01-06T12:00:00Z', ana);
    const shifts = finalShifts(
      daily,
      [o],
      new Date('2026-01-06T00:00:00Z'),
      new Date('2026-01-06T18:00:00Z'),
    );
    expect(spans(shifts)).toEqual([
      ['ana', '2026-01-06T00:00:00.000Z', '2026-01-06T06:00:00.000Z', 'layer'],
      ['cai', '2026-01-06T06:00:00.000Z', '2026-01-06T09:00:00.000Z', 'override'],
      ['ben', '2026-01-06T09:00:00.000Z', '2026-01-06T18:00:00.000Z', 'layer'],
    ]);
  });

  it('a replacing override changes nothing where that person is not on call, or nobody is', () => {
    const o = override(cai, '2026-01-06T10:00:00Z', '2026-01-06T12:00:00Z', ana);
    const before = override(cai, '2026-01-04T10:00:00Z', '2026-01-05T10:00:00Z', ana);
    const shifts = finalShifts(
      daily,
      [o, before],
      new Date('2026-01-05T00:00:00Z'),
      new Date('2026-01-06T18:00:00Z'),
    );
    expect(spans(shifts)).toEqual([
      ['cai', '2026-01-05T09:00:00.000Z', '2026-01-05T10:00:00.000Z', 'override'],
      ['ana', '2026-01-05T10:00:00.000Z', '2026-01-06T09:00:00.000Z', 'layer'],
      ['ben', '2026-01-06T09:00:00.000Z', '2026-01-06T18:00:00.000Z', 'layer'],
    ]);
  });

  it('a whole-window override fills a gap where nobody is on call', () => {
    const o = override(cai, '2026-01-05T06:00:00Z', '2026-01-05T10:00:00Z');
    const shifts = finalShifts(
      daily,
      [o],
      new Date('2026-01-05T00:00:00Z'),
      new Date('2026-01-05T12:00:00Z'),
    );
    expect(spans(shifts)).toEqual([
      ['cai', '2026-01-05T06:00:00.000Z', '2026-01-05T10:00:00.000Z', 'override'],
      ['ana', '2026-01-05T10:00:00.000Z', '2026-01-05T12:00:00.000Z', 'layer'],
    ]);
  });

  it('overlapping overrides: the newest decides, and a replacing one sees the older ones', () => {
    const older = override(cai, '2026-01-06T10:00:00Z', '2026-01-06T14:00:00Z', null, '2026-01-01T00:00:00Z');
    const newer = override(dev, '2026-01-06T12:00:00Z', '2026-01-06T16:00:00Z', null, '2026-01-02T00:00:00Z');
    const chained = override(
      ana,
      '2026-01-06T11:00:00Z',
      '2026-01-06T12:00:00Z',
      cai,
      '2026-01-03T00:00:00Z',
    );
    // Listed newest first: the order given does not matter, only created_at.
    const shifts = finalShifts(
      daily,
      [chained, newer, older],
      new Date('2026-01-06T10:00:00Z'),
      new Date('2026-01-06T17:00:00Z'),
    );
    expect(spans(shifts)).toEqual([
      ['cai', '2026-01-06T10:00:00.000Z', '2026-01-06T11:00:00.000Z', 'override'],
      ['ana', '2026-01-06T11:00:00.000Z', '2026-01-06T12:00:00.000Z', 'override'],
      ['dev', '2026-01-06T12:00:00.000Z', '2026-01-06T16:00:00.000Z', 'override'],
      ['ben', '2026-01-06T16:00:00.000Z', '2026-01-06T17:00:00.000Z', 'layer'],
    ]);
  });

  it('continuousSpans joins a person’s override and layer time into one span', () => {
    const o = override(ben, '2026-01-06T06:00:00Z', '2026-01-06T09:00:00Z');
    const shifts = finalShifts(
      daily,
      [o],
      new Date('2026-01-06T00:00:00Z'),
      new Date('2026-01-06T18:00:00Z'),
    );
    expect(shifts).toHaveLength(3);
    expect(spans(continuousSpans(shifts))).toEqual([
      ['ana', '2026-01-06T00:00:00.000Z', '2026-01-06T06:00:00.000Z', 'layer'],
      ['ben', '2026-01-06T06:00:00.000Z', '2026-01-06T18:00:00.000Z', 'override'],
    ]);
  });

  it('an empty or reversed window has no shifts', () => {
    const at = new Date('2026-01-06T00:00:00Z');
    expect(finalShifts(daily, [], at, at)).toEqual([]);
  });
});

describe('across DST changes', () => {
  it('Europe/Berlin: daily 09:00 hand-overs keep the wall clock; an override is absolute time', () => {
    // Clocks go forward on 2026-03-29 at 02:00 (UTC+1 → UTC+2).
    const berlin = schedule('Europe/Berlin', '2026-03-27T09:00:00+01:00', DAY);
    const o = override(cai, '2026-03-29T00:30:00Z', '2026-03-29T03:30:00Z', ben);
    const shifts = finalShifts(
      berlin,
      [o],
      new Date('2026-03-28T08:00:00Z'),
      new Date('2026-03-30T08:00:00Z'),
    );
    expect(spans(shifts)).toEqual([
      // Ben's turn from 09:00 CET on the 28th is 23 hours long: to 09:00 CEST on the 29th.
      ['ben', '2026-03-28T08:00:00.000Z', '2026-03-29T00:30:00.000Z', 'layer'],
      ['cai', '2026-03-29T00:30:00.000Z', '2026-03-29T03:30:00.000Z', 'override'],
      ['ben', '2026-03-29T03:30:00.000Z', '2026-03-29T07:00:00.000Z', 'layer'],
      ['ana', '2026-03-29T07:00:00.000Z', '2026-03-30T07:00:00.000Z', 'layer'],
      ['ben', '2026-03-30T07:00:00.000Z', '2026-03-30T08:00:00.000Z', 'layer'],
    ]);
  });

  it('America/New_York: an override over the repeated hour in November covers both', () => {
    // Clocks go back on 2026-11-01 at 02:00 EDT (UTC-4 → UTC-5): 01:00–02:00 happens twice.
    const ny = schedule('America/New_York', '2026-10-31T12:00:00-04:00', 12 * HOUR, [ana]);
    const o = override(ben, '2026-11-01T05:00:00Z', '2026-11-01T07:00:00Z');
    expect(finalOnCallAt(ny, [o], new Date('2026-11-01T05:30:00Z'))?.person).toEqual(ben);
    expect(finalOnCallAt(ny, [o], new Date('2026-11-01T06:30:00Z'))?.person).toEqual(ben);
    expect(finalOnCallAt(ny, [o], new Date('2026-11-01T07:00:00Z'))?.person).toEqual(ana);
    const shifts = finalShifts(ny, [o], new Date('2026-11-01T00:00:00Z'), new Date('2026-11-01T12:00:00Z'));
    expect(spans(shifts)).toEqual([
      ['ana', '2026-11-01T00:00:00.000Z', '2026-11-01T05:00:00.000Z', 'layer'],
      ['ben', '2026-11-01T05:00:00.000Z', '2026-11-01T07:00:00.000Z', 'override'],
      ['ana', '2026-11-01T07:00:00.000Z', '2026-11-01T12:00:00.000Z', 'layer'],
    ]);
  });
});

describe('finalOnCallAt', () => {
  const daily = schedule('UTC', '2026-01-05T09:00:00Z', DAY);
  it('is the layer’s person without overrides, and the override’s inside one', () => {
    expect(finalOnCallAt(daily, [], new Date('2026-01-05T10:00:00Z'))?.person).toEqual(ana);
    const o = override(cai, '2026-01-05T10:00:00Z', '2026-01-05T11:00:00Z');
    expect(finalOnCallAt(daily, [o], new Date('2026-01-05T10:00:00Z'))).toMatchObject({
      person: cai,
      source: 'override',
    });
    // The end is exclusive.
    expect(finalOnCallAt(daily, [o], new Date('2026-01-05T11:00:00Z'))?.person).toEqual(ana);
  });
});

/**
 * Property tests over random schedules and overrides. A small seeded generator rather than a library
 * (this package lists none): every run sees the same cases, and a failure names its seed.
 */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]) => items[int(0, items.length - 1)]!;
  return { int, pick };
}

describe('properties', () => {
  const people = [ana, ben, cai, dev];
  const base = Date.UTC(2026, 2, 25);
  const zones = ['UTC', 'Europe/Berlin', 'America/New_York'];
  const durations = [8 * HOUR, 12 * HOUR, DAY, 7 * DAY, 36 * HOUR];

  it('final shifts agree with finalOnCallAt at every instant, do not overlap and stay in the window', () => {
    for (let seed = 1; seed <= 300; seed += 1) {
      const r = random(seed);
      const instant = () => new Date(base + r.int(0, 10 * DAY) * 1000);
      const s = schedule(r.pick(zones), '2026-03-26T09:00:00Z', r.pick(durations), [ana, ben, cai]);
      const overrides = Array.from({ length: r.int(0, 6) }, () => {
        const start = instant();
        const end = new Date(start.getTime() + r.int(1, 3 * DAY) * 1000);
        const replaces = r.int(0, 1) ? r.pick(people) : null;
        const created = new Date(Date.UTC(2026, 0, 1) + r.int(0, 1000) * 1000);
        return override(
          r.pick(people),
          start.toISOString(),
          end.toISOString(),
          replaces,
          created.toISOString(),
        );
      });
      const from = instant();
      const to = new Date(from.getTime() + r.int(1, 5 * DAY) * 1000);
      const shifts = finalShifts(s, overrides, from, to);
      for (const [i, shift] of shifts.entries()) {
        expect(shift.start < shift.end, `seed ${seed}`).toBe(true);
        expect(shift.start >= from && shift.end <= to, `seed ${seed}`).toBe(true);
        if (i > 0) expect(shifts[i - 1]!.end <= shift.start, `seed ${seed}`).toBe(true);
      }
      const probes = [from, ...shifts.map((sh) => sh.start), ...Array.from({ length: 8 }, instant)];
      for (const probe of probes) {
        if (probe < from || probe >= to) continue;
        const covering = shifts.find((sh) => sh.start <= probe && probe < sh.end);
        expect(covering?.person, `seed ${seed} at ${probe.toISOString()}`).toEqual(
          finalOnCallAt(s, overrides, probe)?.person,
        );
      }
    }
  });

  it('without overrides, the final answer is the layers’ own', () => {
    for (let seed = 1; seed <= 200; seed += 1) {
      const r = random(seed);
      const s = schedule(r.pick(zones), '2026-03-26T09:00:00Z', r.pick(durations), [ana, ben, cai]);
      const probe = new Date(base + r.int(0, 10 * DAY) * 1000);
      expect(finalOnCallAt(s, [], probe)?.person, `seed ${seed}`).toEqual(onCallAt(s, probe)?.participant);
    }
  });
});

describe('bounded work', () => {
  it('refuses a window with more layer turns than allowed', () => {
    const minutely = schedule('UTC', '2026-01-05T00:00:00Z', 60);
    const from = new Date('2026-01-05T00:00:00Z');
    expect(finalShifts(minutely, [], from, new Date('2026-01-05T01:00:00Z'), 100)).toHaveLength(60);
    expect(() => finalShifts(minutely, [], from, new Date('2026-01-06T00:00:00Z'), 100)).toThrow(
      TooManyShiftsError,
    );
  });
});
