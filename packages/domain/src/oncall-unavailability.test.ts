import { describe, expect, it } from 'vitest';
import { layerTurns } from './oncall';
import { finalOnCallAt, finalShifts, type OnCallPerson, type ScheduleOverride } from './oncall-overrides';
import { leavesGap, type Unavailability, unavailableAt } from './oncall-unavailability';

const DAY = 86_400;
const HOUR = 3_600;
const person = (name: string): OnCallPerson => ({ user_id: `id-${name}`, name });
const [ana, ben, cai, dev, eve] = ['ana', 'ben', 'cai', 'dev', 'eve'].map(person) as [
  OnCallPerson,
  OnCallPerson,
  OnCallPerson,
  OnCallPerson,
  OnCallPerson,
];

interface LayerSpec {
  name: string;
  order_index: number;
  start: string;
  seconds: number;
  people: OnCallPerson[];
}

function schedule(layers: LayerSpec[], timezone = 'UTC') {
  return {
    timezone,
    layers: layers.map((l) => ({
      name: l.name,
      order_index: l.order_index,
      rotation_start: new Date(l.start),
      shift_duration_seconds: l.seconds,
      participants: l.people,
    })),
  };
}

const primary = (people = [ana, ben, cai], seconds = DAY): LayerSpec => ({
  name: 'Primary',
  order_index: 1,
  start: '2026-01-05T09:00:00Z',
  seconds,
  people,
});
const backup: LayerSpec = {
  name: 'Backup',
  order_index: 0,
  start: '2026-01-05T00:00:00Z',
  seconds: 12 * HOUR,
  people: [dev, eve],
};

const away = (who: OnCallPerson, startsAt: string, endsAt: string): Unavailability => ({
  user_id: who.user_id!,
  starts_at: new Date(startsAt),
  ends_at: new Date(endsAt),
});

const view = (shifts: ReturnType<typeof finalShifts>) =>
  shifts.map((s) => [
    s.person.name,
    s.start.toISOString().slice(5, 16),
    s.end.toISOString().slice(5, 16),
    s.source === 'override' ? 'override' : s.layer_name,
    s.covering_for?.name ?? null,
  ]);

const at = (iso: string) => new Date(iso);

describe('unavailability in the layers', () => {
  const daily = schedule([primary()]);

  it('the turn goes to the next participant in the layer’s order, exactly for the range', () => {
    const ranges = [away(ana, '2026-01-05T12:00:00Z', '2026-01-05T15:00:00Z')];
    const shifts = finalShifts(
      daily,
      [],
      at('2026-01-05T09:00:00Z'),
      at('2026-01-06T12:00:00Z'),
      1e4,
      ranges,
    );
    expect(view(shifts)).toEqual([
      ['ana', '01-05T09:00', '01-05T12:00', 'Primary', null],
      ['ben', '01-05T12:00', '01-05T15:00', 'Primary', 'ana'],
      ['ana', '01-05T15:00', '01-06T09:00', 'Primary', null],
      ['ben', '01-06T09:00', '01-06T12:00', 'Primary', null],
    ]);
    expect(shifts[1]?.covering_for).toEqual({ user_id: 'id-ana', name: 'ana', reason: 'unavailable' });
    // Starts inclusive, ends exclusive.
    expect(finalOnCallAt(daily, [], at('2026-01-05T11:59:59.999Z'), ranges)?.person).toEqual(ana);
    expect(finalOnCallAt(daily, [], at('2026-01-05T12:00:00Z'), ranges)?.person).toEqual(ben);
    expect(finalOnCallAt(daily, [], at('2026-01-05T14:59:59.999Z'), ranges)?.person).toEqual(ben);
    expect(finalOnCallAt(daily, [], at('2026-01-05T15:00:00Z'), ranges)?.person).toEqual(ana);
  });

  it('skips every unavailable participant in order, wrapping round the list', () => {
    const ranges = [
      away(cai, '2026-01-07T00:00:00Z', '2026-01-08T00:00:00Z'),
      away(ana, '2026-01-07T00:00:00Z', '2026-01-07T12:00:00Z'),
    ];
    // Cai's turn from 09:00 on the 7th: Ana is next, unavailable until 12:00, so Ben, then Ana.
    const shifts = finalShifts(
      daily,
      [],
      at('2026-01-07T09:00:00Z'),
      at('2026-01-08T09:00:00Z'),
      1e4,
      ranges,
    );
    expect(view(shifts)).toEqual([
      ['ben', '01-07T09:00', '01-07T12:00', 'Primary', 'cai'],
      ['ana', '01-07T12:00', '01-08T00:00', 'Primary', 'cai'],
      ['cai', '01-08T00:00', '01-08T09:00', 'Primary', null],
    ]);
  });

  it('a layer whose every participant is unavailable has nobody: the lower layer shows through', () => {
    const two = schedule([primary([ana, ben]), backup]);
    const ranges = [
      away(ana, '2026-01-05T10:00:00Z', '2026-01-06T00:00:00Z'),
      away(ben, '2026-01-05T11:00:00Z', '2026-01-05T14:00:00Z'),
    ];
    const shifts = finalShifts(two, [], at('2026-01-05T09:00:00Z'), at('2026-01-05T16:00:00Z'), 1e4, ranges);
    // Backup hands over from Dev to Eve at 12:00, inside the time Primary has nobody.
    expect(view(shifts)).toEqual([
      ['ana', '01-05T09:00', '01-05T10:00', 'Primary', null],
      ['ben', '01-05T10:00', '01-05T11:00', 'Primary', 'ana'],
      ['dev', '01-05T11:00', '01-05T12:00', 'Backup', null],
      ['eve', '01-05T12:00', '01-05T14:00', 'Backup', null],
      ['ben', '01-05T14:00', '01-05T16:00', 'Primary', 'ana'],
    ]);
    expect(finalOnCallAt(two, [], at('2026-01-05T13:00:00Z'), ranges)?.person).toEqual(eve);
  });

  it('with no layer below, nobody is on call: a gap, not a shift', () => {
    const solo = schedule([primary([ana])]);
    const ranges = [away(ana, '2026-01-05T12:00:00Z', '2026-01-05T13:00:00Z')];
    const shifts = finalShifts(solo, [], at('2026-01-05T11:00:00Z'), at('2026-01-05T14:00:00Z'), 1e4, ranges);
    expect(view(shifts)).toEqual([
      ['ana', '01-05T11:00', '01-05T12:00', 'Primary', null],
      ['ana', '01-05T13:00', '01-05T14:00', 'Primary', null],
    ]);
    expect(finalOnCallAt(solo, [], at('2026-01-05T12:30:00Z'), ranges)).toBeUndefined();
  });

  it('overrides still win; a replacing override takes the covering person’s time', () => {
    const ranges = [away(ana, '2026-01-05T09:00:00Z', '2026-01-06T09:00:00Z')];
    const override: ScheduleOverride = {
      id: 'o1',
      person: dev,
      replaces_user_id: ben.user_id,
      starts_at: at('2026-01-05T18:00:00Z'),
      ends_at: at('2026-01-05T20:00:00Z'),
      created_at: at('2026-01-01T00:00:00Z'),
    };
    const shifts = finalShifts(
      daily,
      [override],
      at('2026-01-05T09:00:00Z'),
      at('2026-01-06T09:00:00Z'),
      1e4,
      ranges,
    );
    expect(view(shifts)).toEqual([
      ['ben', '01-05T09:00', '01-05T18:00', 'Primary', 'ana'],
      ['dev', '01-05T18:00', '01-05T20:00', 'override', null],
      ['ben', '01-05T20:00', '01-06T09:00', 'Primary', 'ana'],
    ]);
  });

  it('an override replacing the absent person takes the time of whoever covers for them', () => {
    // "Dev replaces Ana" 18:00–20:00, then Ana is away all day: Ben covers for her, Dev still comes in.
    const ranges = [away(ana, '2026-01-05T09:00:00Z', '2026-01-06T09:00:00Z')];
    const override: ScheduleOverride = {
      id: 'o1',
      person: dev,
      replaces_user_id: ana.user_id,
      starts_at: at('2026-01-05T18:00:00Z'),
      ends_at: at('2026-01-05T20:00:00Z'),
      created_at: at('2026-01-01T00:00:00Z'),
    };
    const shifts = finalShifts(
      daily,
      [override],
      at('2026-01-05T09:00:00Z'),
      at('2026-01-06T12:00:00Z'),
      1e4,
      ranges,
    );
    expect(view(shifts)).toEqual([
      ['ben', '01-05T09:00', '01-05T18:00', 'Primary', 'ana'],
      ['dev', '01-05T18:00', '01-05T20:00', 'override', null],
      ['ben', '01-05T20:00', '01-06T09:00', 'Primary', 'ana'],
      ['ben', '01-06T09:00', '01-06T12:00', 'Primary', null],
    ]);
    for (const [iso, who] of [
      ['2026-01-05T17:59:59.999Z', ben],
      ['2026-01-05T18:00:00Z', dev],
      ['2026-01-05T19:59:59.999Z', dev],
      ['2026-01-05T20:00:00Z', ben],
    ] as const) {
      expect(finalOnCallAt(daily, [override], at(iso), ranges)?.person, iso).toEqual(who);
    }
    // Where Ana is neither on call nor covered for (Ben's own turn), the override changes nothing.
    const later = { ...override, starts_at: at('2026-01-06T10:00:00Z'), ends_at: at('2026-01-06T11:00:00Z') };
    expect(finalOnCallAt(daily, [later], at('2026-01-06T10:30:00Z'), ranges)?.person).toEqual(ben);
  });

  it('2 000 ranges over 14 days on a daily rotation: the shifts agree with the instant lookup', () => {
    const r = random(2000);
    // From the rotation's start, so that every hole is unavailability, not the time before it.
    const from = Date.UTC(2026, 0, 5, 9);
    const span = 14 * DAY * 1000;
    const crew = [ana, ben, cai, dev, eve];
    const rotation = schedule([primary(crew)]);
    const ranges = Array.from({ length: 2000 }, () => {
      const start = from + r.int(0, span / 1000) * 1000;
      return {
        user_id: r.pick([...crew, person('outsider')]).user_id!,
        starts_at: new Date(start),
        ends_at: new Date(start + r.int(60, 6 * HOUR) * 1000),
      };
    });
    const to = new Date(from + span);
    const shifts = finalShifts(rotation, [], new Date(from), to, 1e4, ranges);
    for (let i = 0; i < 400; i += 1) {
      const probe = new Date(from + r.int(0, span / 1000 - 1) * 1000);
      const covering = shifts.find((sh) => sh.start <= probe && probe < sh.end);
      const expected = finalOnCallAt(rotation, [], probe, ranges);
      expect(covering?.person, probe.toISOString()).toEqual(expected?.person);
      expect(covering?.covering_for, probe.toISOString()).toEqual(expected?.covering_for);
      // Against the plain scan: whoever is on call is not away, and a hole means everyone is.
      if (expected) expect(unavailableAt(ranges, expected.person.user_id, probe.getTime())).toBe(false);
      else expect(crew.every((p) => unavailableAt(ranges, p.user_id, probe.getTime()))).toBe(true);
    }
    for (const shift of shifts) {
      const clash = ranges.find(
        (range) =>
          range.user_id === shift.person.user_id &&
          range.starts_at < shift.end &&
          shift.start < range.ends_at,
      );
      expect(clash, `${shift.person.name} from ${shift.start.toISOString()}`).toBeUndefined();
    }
  });

  it('someone else’s range, or one outside the window, changes nothing', () => {
    const from = at('2026-01-05T00:00:00Z');
    const to = at('2026-01-12T00:00:00Z');
    const ranges = [
      away(eve, '2026-01-06T03:00:00Z', '2026-01-08T17:00:00Z'),
      away(ana, '2025-12-01T00:00:00Z', '2025-12-02T00:00:00Z'),
    ];
    expect(finalShifts(daily, [], from, to, 1e4, ranges)).toEqual(finalShifts(daily, [], from, to));
  });
});

describe('leavesGap', () => {
  const shift = (from: number, to: number) => ({ start: new Date(from), end: new Date(to) });
  it('is false only where the shifts cover every instant of the window', () => {
    expect(leavesGap([shift(0, 5), shift(5, 10)], 2, 8)).toBe(false);
    expect(leavesGap([shift(0, 20)], 2, 8)).toBe(false);
    expect(leavesGap([shift(0, 5), shift(6, 10)], 2, 8)).toBe(true);
    expect(leavesGap([shift(3, 10)], 2, 8)).toBe(true);
    expect(leavesGap([shift(0, 7)], 2, 8)).toBe(true);
    expect(leavesGap([], 2, 8)).toBe(true);
  });
});

/**
 * Property tests over random layers, ranges and overrides, with the same small seeded generator as
 * oncall-overrides.test.ts: every run sees the same cases, and a failure names its seed.
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
  const people = [ana, ben, cai, dev, eve];
  const base = Date.UTC(2026, 2, 25);
  const zones = ['UTC', 'Europe/Berlin', 'America/New_York'];
  const durations = [4 * HOUR, 8 * HOUR, 12 * HOUR, DAY, 7 * DAY, 36 * HOUR];

  function randomCase(seed: number) {
    const r = random(seed);
    const instant = () => new Date(base + r.int(0, 10 * DAY) * 1000);
    const crew = () => Array.from({ length: r.int(1, 3) }, () => r.pick(people));
    const s = schedule(
      [
        {
          name: 'Top',
          order_index: 2,
          start: instant().toISOString(),
          seconds: r.pick(durations),
          people: crew(),
        },
        {
          name: 'Low',
          order_index: 1,
          start: '2026-03-20T09:00:00Z',
          seconds: r.pick(durations),
          people: crew(),
        },
      ],
      r.pick(zones),
    );
    const ranges = Array.from({ length: r.int(0, 5) }, () => {
      const start = instant();
      return {
        user_id: r.pick(people).user_id!,
        starts_at: start,
        ends_at: new Date(start.getTime() + r.int(1, 3 * DAY) * 1000),
      };
    });
    const overrides = Array.from({ length: r.int(0, 3) }, (_, i): ScheduleOverride => {
      const start = instant();
      return {
        id: `o${i}`,
        person: r.pick(people),
        replaces_user_id: r.int(0, 1) ? r.pick(people).user_id : null,
        starts_at: start,
        ends_at: new Date(start.getTime() + r.int(1, 2 * DAY) * 1000),
        created_at: new Date(Date.UTC(2026, 0, 1) + i * 1000),
      };
    });
    const from = instant();
    const to = new Date(from.getTime() + r.int(1, 5 * DAY) * 1000);
    const probes = [from, ...Array.from({ length: 12 }, instant)];
    return { s, ranges, overrides, from, to, probes };
  }

  it('the final shifts agree with the instant lookup, do not overlap, and stay in the window', () => {
    for (let seed = 1; seed <= 300; seed += 1) {
      const { s, ranges, overrides, from, to, probes } = randomCase(seed);
      const shifts = finalShifts(s, overrides, from, to, 1e4, ranges);
      for (const [i, shift] of shifts.entries()) {
        expect(shift.start < shift.end, `seed ${seed}`).toBe(true);
        expect(shift.start >= from && shift.end <= to, `seed ${seed}`).toBe(true);
        if (i > 0) expect(shifts[i - 1]!.end <= shift.start, `seed ${seed}`).toBe(true);
      }
      const edges = [
        ...shifts.flatMap((sh) => [sh.start, sh.end, new Date(sh.end.getTime() - 1)]),
        ...ranges.flatMap((r) => [r.starts_at, r.ends_at, new Date(r.ends_at.getTime() - 1)]),
      ];
      for (const probe of [...probes, ...edges]) {
        if (probe < from || probe >= to) continue;
        const covering = shifts.find((sh) => sh.start <= probe && probe < sh.end);
        const expected = finalOnCallAt(s, overrides, probe, ranges);
        const where = `seed ${seed} at ${probe.toISOString()}`;
        expect(covering?.person, where).toEqual(expected?.person);
        expect(covering?.covering_for, where).toEqual(expected?.covering_for);
      }
    }
  });

  it('nobody unavailable is ever on call through a layer, and nobody is only where a whole layer is', () => {
    for (let seed = 1; seed <= 300; seed += 1) {
      const { s, ranges, from, to, probes } = randomCase(seed);
      const shifts = finalShifts(s, [], from, to, 1e4, ranges);
      const turnsAt = layerTurns(s);
      for (const shift of shifts) {
        const clash = ranges.find(
          (r) => r.user_id === shift.person.user_id && r.starts_at < shift.end && shift.start < r.ends_at,
        );
        expect(clash, `seed ${seed}: ${shift.person.name} from ${shift.start.toISOString()}`).toBeUndefined();
      }
      for (const probe of probes) {
        if (probe < from || probe >= to) continue;
        const onCall = shifts.some((sh) => sh.start <= probe && probe < sh.end);
        // A hole only where every participant of every running layer is unavailable.
        const someoneFree = turnsAt(probe).some((turn) =>
          turn.layer.participants.some((p) => !unavailableAt(ranges, p.user_id, probe.getTime())),
        );
        expect(onCall, `seed ${seed} at ${probe.toISOString()}`).toBe(someoneFree);
      }
    }
  });
});
