import { describe, expect, it } from 'vitest';
import { planOpsgenieSchedules } from './schedules';

const people = { byId: new Map(), byUsername: new Map() };
const context = { people, teamNames: new Map(), now: new Date('2026-06-01T00:00:00Z') };
const rotation = (name: string, endDate?: string) => ({
  name,
  type: 'daily',
  startDate: '2026-01-05T08:00:00Z',
  endDate,
  participants: [],
});

describe('schedules', () => {
  it('the rotation listed first gets the highest order_index, ended ones are left out', () => {
    const plan = planOpsgenieSchedules(
      [
        {
          id: 's1',
          name: 'S',
          timezone: 'Europe/Paris',
          rotations: [
            rotation('first'),
            rotation('ended', '2026-02-01T00:00:00Z'),
            rotation('second'),
            rotation('third'),
          ],
        },
      ],
      {},
      context,
      { scheduleNames: [] },
    );
    expect(plan.schedules[0]!.layers.map((l) => [l.name, l.orderIndex])).toEqual([
      ['first', 2],
      ['second', 1],
      ['third', 0],
    ]);
    expect(plan.warnings.map((w) => w.message)).toContain(
      '3 rotations: Opsgenie pages everyone on call in any of them; here, where they overlap, the one listed first wins',
    );
  });

  it('a name that exists here or earlier in the import is a conflict; an unknown zone is UTC', () => {
    const plan = planOpsgenieSchedules(
      [
        { id: 's1', name: 'Here', rotations: [] },
        { id: 's2', name: 'New', timezone: 'Mars/Olympus', rotations: [] },
        { id: 's3', name: 'New', rotations: [] },
      ],
      {},
      context,
      { scheduleNames: ['Here'] },
    );
    expect(plan.skipped).toBe(2);
    expect(plan.conflicts.map((c) => c.reason)).toEqual([
      'a schedule with this name already exists',
      'an earlier schedule in this import has the same name',
    ]);
    expect(plan.schedules[0]!.timezone).toBe('UTC');
    expect(plan.warnings.map((w) => w.message)).toContain('unknown time zone "Mars/Olympus"; UTC used');
  });

  it('each override is a warning: overrides are not brought across yet', () => {
    const plan = planOpsgenieSchedules(
      [{ id: 's1', name: 'S', timezone: 'UTC', rotations: [rotation('r')] }],
      {
        s1: [
          {
            alias: 'a1',
            user: { type: 'user', username: 'a@x.dev' },
            startDate: '2026-07-01',
            endDate: '2026-07-02',
          },
          { alias: 'a2', user: { type: 'none' } },
        ],
      },
      context,
      { scheduleNames: [] },
    );
    const overrides = plan.warnings.filter((w) => w.message.includes('override'));
    expect(overrides.map((w) => w.message)).toEqual([
      "override 'a1' (a@x.dev, 2026-07-01 to 2026-07-02) not imported: overrides are not brought across yet; recreate it with the overrides API or on the schedule page",
      "override 'a2' (none, ? to ?) not imported: overrides are not brought across yet; recreate it with the overrides API or on the schedule page",
    ]);
  });
});
