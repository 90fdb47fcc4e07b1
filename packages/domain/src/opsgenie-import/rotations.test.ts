import { describe, expect, it } from 'vitest';
import { mapRotation, turnSeconds } from './rotations';
import type { People } from './users';

const ann = { email: 'a@x.dev', name: 'Ann' };
const people: People = { byId: new Map([['u1', ann]]), byUsername: new Map([['a@x.dev', ann]]) };
const context = { people, teamNames: new Map([['t1', 'Payments']]), now: new Date('2026-06-01T00:00:00Z') };
const rotation = (fields: Record<string, unknown> = {}) => ({
  name: 'R',
  type: 'weekly',
  startDate: '2026-01-05T08:00:00Z',
  participants: [{ type: 'user', id: 'u1' }],
  ...fields,
});

describe('turn length', () => {
  it('length hours, days or weeks; default 1; an unknown type read as weeks with a note', () => {
    expect(turnSeconds(rotation({ type: 'hourly', length: 12 })).seconds).toBe(43_200);
    expect(turnSeconds(rotation({ type: 'daily', length: 2 })).seconds).toBe(172_800);
    expect(turnSeconds(rotation({ type: 'weekly' })).seconds).toBe(604_800);
    const custom = turnSeconds(rotation({ type: 'custom', length: 2 }));
    expect(custom).toEqual({ seconds: 1_209_600, note: expect.stringContaining('custom') });
  });
});

describe('a rotation', () => {
  it('becomes a layer from its start, rotation type described by its length', () => {
    const { layer, notes } = mapRotation(rotation({ type: 'hourly', length: 8 }), 0, context);
    expect(layer).toEqual({
      name: 'R',
      rotationStart: new Date('2026-01-05T08:00:00Z'),
      shiftDurationSeconds: 28_800,
      rotationType: 'daily',
      participants: [ann],
    });
    expect(notes).toEqual([]);
  });

  it('ended: left out with a warning; ending later: the end dropped with a warning', () => {
    const ended = mapRotation(rotation({ endDate: '2026-05-01T00:00:00Z' }), 0, context);
    expect(ended.layer).toBeUndefined();
    expect(ended.notes).toEqual(["rotation 'R': ended 2026-05-01T00:00:00Z; not imported"]);
    const later = mapRotation(rotation({ endDate: '2027-01-01T00:00:00Z' }), 0, context);
    expect(later.layer).toBeDefined();
    expect(later.notes[0]).toContain('end 2027-01-01T00:00:00Z dropped');
  });

  it('a time restriction is dropped with a warning', () => {
    const { notes } = mapRotation(rotation({ timeRestriction: { type: 'time-of-day' } }), 0, context);
    expect(notes).toEqual([
      "rotation 'R': time-of-day restriction dropped: the layer is on call around the clock",
    ]);
  });

  it('team, escalation and none keep their turn as names without an account, one warning each kind', () => {
    const { layer, notes } = mapRotation(
      rotation({
        participants: [
          { type: 'team', id: 't1' },
          { type: 'escalation', name: 'Esc' },
          { type: 'none' },
          { type: 'none' },
          { type: 'user', id: 'u9', username: 'gone@x.dev' },
        ],
      }),
      0,
      context,
    );
    expect(layer!.participants).toEqual([
      { email: null, name: 'team Payments' },
      { email: null, name: 'escalation Esc' },
      { email: null, name: 'nobody' },
      { email: null, name: 'nobody' },
      { email: null, name: 'gone@x.dev' },
    ]);
    expect(notes).toHaveLength(4);
    expect(notes.join('\n')).toMatch(
      /team Payments takes a turn[\s\S]*escalation Esc[\s\S]*nobody[\s\S]*gone@x.dev/,
    );
  });

  it('a start that is not a time: not imported; no name: numbered', () => {
    expect(mapRotation(rotation({ startDate: 'soon' }), 0, context).layer).toBeUndefined();
    expect(mapRotation(rotation({ name: null }), 2, context).layer!.name).toBe('Rotation 3');
  });
});
