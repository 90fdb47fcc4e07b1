import type { Schedule } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import { segmentsInWindow, shiftsOf } from './shift-window';

const day = 86_400_000;
const at = (iso: string) => new Date(iso);

describe('schedule picture', () => {
  it('clips shifts to the window and places them as percentages', () => {
    const from = at('2026-11-21T00:00:00Z');
    const to = new Date(from.getTime() + 4 * day);
    const segments = segmentsInWindow(
      [
        { name: 'Ann', layer: 'L', start: at('2026-11-20T12:00:00Z'), end: at('2026-11-22T00:00:00Z') },
        { name: 'Bo', layer: 'L', start: at('2026-11-22T00:00:00Z'), end: at('2026-11-26T00:00:00Z') },
        { name: 'Cy', layer: 'L', start: at('2026-11-26T00:00:00Z'), end: at('2026-11-27T00:00:00Z') },
      ],
      from,
      to,
    );
    expect(segments.map(({ name, left, width }) => ({ name, left, width }))).toEqual([
      { name: 'Ann', left: 0, width: 25 },
      { name: 'Bo', left: 25, width: 75 },
    ]);
  });

  it('hands a weekly rotation over at the same wall-clock time across a DST change', () => {
    // Europe/Berlin leaves summer time on 2026-10-25: the hand-over stays at 09:00 local.
    const schedule: Schedule = {
      id: '00000000-0000-4000-8000-000000000001',
      name: 'Primary',
      timezone: 'Europe/Berlin',
      layers: [
        {
          name: 'Weekly',
          order_index: 0,
          rotation_start: '2026-10-19T07:00:00.000Z', // Monday 09:00 CEST
          shift_duration_seconds: 7 * 86_400,
          rotation_type: 'weekly',
          participants: [
            { user_id: null, name: 'Ann' },
            { user_id: null, name: 'Bo' },
          ],
        },
      ],
      created_at: '2026-10-01T00:00:00.000Z',
      updated_at: '2026-10-01T00:00:00.000Z',
    };
    const shifts = shiftsOf(schedule, at('2026-10-20T00:00:00Z'), 3);
    expect(shifts.map((s) => [s.name, s.start.toISOString()])).toEqual([
      ['Ann', '2026-10-19T07:00:00.000Z'],
      ['Bo', '2026-10-26T08:00:00.000Z'], // Monday 09:00 CET
      ['Ann', '2026-11-02T08:00:00.000Z'],
    ]);
  });
});
