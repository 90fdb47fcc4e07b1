import type { Schedule } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import {
  emptyLayer,
  emptyScheduleForm,
  formOfSchedule,
  previewOf,
  type ScheduleForm,
  scheduleInputOf,
  wallTimeIn,
} from './schedule-form';

const ANN = '00000000-0000-4000-8000-0000000000a1';
const BO = '00000000-0000-4000-8000-0000000000b2';

const twoLayers = (): ScheduleForm => ({
  name: ' Payments ',
  timezone: 'Europe/Berlin',
  layers: [
    {
      key: 'l1',
      name: 'Weekly',
      rotationStart: '2026-10-19T09:00',
      preset: 'weekly',
      customHours: '168',
      participants: [
        { key: 'p1', userId: ANN, name: 'Ann' },
        { key: 'p2', userId: BO, name: 'Bo' },
      ],
    },
    {
      key: 'l2',
      name: 'Weekend cover',
      rotationStart: '2026-10-24T09:00',
      preset: 'custom',
      customHours: '12',
      participants: [{ key: 'p3', userId: null, name: 'Contractor' }],
    },
  ],
});

describe('the schedule editor', () => {
  it('shows a rotation start as wall-clock time in the schedule zone, and sends the saved instant back', () => {
    expect(wallTimeIn('Europe/Berlin', new Date('2026-10-19T07:00:00Z'))).toBe('2026-10-19T09:00');
    expect(wallTimeIn('America/New_York', new Date('2026-01-05T14:30:00Z'))).toBe('2026-01-05T09:30');
    const schedule: Schedule = {
      id: '00000000-0000-4000-8000-000000000001',
      name: 'Primary',
      timezone: 'Europe/Berlin',
      layers: [
        {
          name: 'Daily',
          order_index: 3,
          rotation_start: '2026-10-19T07:00:00.000Z',
          shift_duration_seconds: 86_400,
          rotation_type: 'daily',
          participants: [{ user_id: null, name: 'Imported person' }],
        },
      ],
      created_at: '2026-10-01T00:00:00.000Z',
      updated_at: '2026-10-01T00:00:00.000Z',
    };
    const form = formOfSchedule(schedule);
    expect(form.layers[0]).toMatchObject({ rotationStart: '2026-10-19T09:00', preset: 'daily' });
    expect(scheduleInputOf(form)).toEqual({
      input: {
        name: 'Primary',
        timezone: 'Europe/Berlin',
        layers: [
          {
            name: 'Daily',
            order_index: 0,
            rotation_start: '2026-10-19T07:00:00.000Z',
            shift_duration_seconds: 86_400,
            rotation_type: 'daily',
            participants: [{ user_id: null, name: 'Imported person' }],
          },
        ],
      },
    });
  });

  it('saving other changes never moves a rotation start the field cannot show exactly', () => {
    // 02:30:15 Berlin on 25 Oct 2026, the second time (CET): seconds, and a wall time DST repeats.
    const instant = '2026-10-25T01:30:15.000Z';
    const schedule: Schedule = {
      id: '00000000-0000-4000-8000-000000000001',
      name: 'Primary',
      timezone: 'Europe/Berlin',
      layers: [
        {
          name: 'Daily',
          order_index: 0,
          rotation_start: instant,
          shift_duration_seconds: 86_400,
          rotation_type: 'daily',
          participants: [
            { user_id: ANN, name: 'Ann' },
            { user_id: BO, name: 'Bo' },
          ],
        },
      ],
      created_at: '2026-10-01T00:00:00.000Z',
      updated_at: '2026-10-01T00:00:00.000Z',
    };
    const form = formOfSchedule(schedule);
    expect(form.layers[0]!.rotationStart).toBe('2026-10-25T02:30');
    const renamed = scheduleInputOf({ ...form, name: 'Renamed' });
    expect('input' in renamed && renamed.input.layers[0]!.rotation_start).toBe(instant);
    const preview = previewOf(form, new Date('2026-10-26T00:00:00Z'));
    expect('shifts' in preview && preview.shifts[1]!.start.toISOString()).toBe('2026-10-26T01:30:15.000Z');
    // Once the field is edited, what it says is what is sent.
    const edited = { ...form, layers: [{ ...form.layers[0]!, rotationStart: '2026-10-25T03:00' }] };
    const made = scheduleInputOf(edited);
    expect('input' in made && made.input.layers[0]!.rotation_start).toBe('2026-10-25T03:00');
  });

  it('orders layers by their place in the list and sends people by id', () => {
    const made = scheduleInputOf(twoLayers());
    expect(made).toMatchObject({
      input: {
        name: 'Payments',
        layers: [
          {
            order_index: 0,
            shift_duration_seconds: 604_800,
            participants: [{ user_id: ANN }, { user_id: BO }],
          },
          {
            order_index: 1,
            shift_duration_seconds: 43_200,
            participants: [{ user_id: null, name: 'Contractor' }],
          },
        ],
      },
    });
    expect('input' in made && 'rotation_type' in made.input.layers[1]!).toBe(false);
  });

  it('refuses what the API would, before asking it', () => {
    expect(scheduleInputOf({ ...twoLayers(), name: '  ' })).toEqual({ error: 'Give the schedule a name.' });
    expect(scheduleInputOf({ ...twoLayers(), timezone: 'Mars/Olympus' })).toMatchObject({
      error: expect.stringContaining('not an IANA time zone'),
    });
    expect(scheduleInputOf({ ...twoLayers(), timezone: '+01:00' })).toMatchObject({
      error: expect.stringContaining('not an IANA time zone'),
    });
    const form = twoLayers();
    form.layers[1]!.customHours = '0';
    expect(scheduleInputOf(form)).toMatchObject({ error: expect.stringContaining('Weekend cover') });
    form.layers[1]!.customHours = '12';
    form.layers[0]!.rotationStart = '';
    expect(scheduleInputOf(form)).toMatchObject({ error: expect.stringContaining('rotation start') });
  });

  it('previews two weeks with the later layer winning, handing over at 09:00 local across DST', () => {
    const form = twoLayers();
    form.layers = [form.layers[0]!];
    const preview = previewOf(form, new Date('2026-10-20T00:00:00Z'));
    if ('error' in preview) throw new Error(preview.error);
    expect(preview.to.toISOString()).toBe('2026-11-03T00:00:00.000Z');
    expect(preview.shifts.map((s) => [s.name, s.start.toISOString()])).toEqual([
      ['Ann', '2026-10-19T07:00:00.000Z'],
      ['Bo', '2026-10-26T08:00:00.000Z'], // Berlin left summer time on the 25th
      ['Ann', '2026-11-02T08:00:00.000Z'],
    ]);

    // The second layer, once started, is on top: Ann's turn is cut short when it begins.
    const both = previewOf(twoLayers(), new Date('2026-10-24T06:00:00Z'));
    if ('error' in both) throw new Error(both.error);
    expect(both.shifts.map((s) => [s.name, s.layer, s.start.toISOString(), s.end.toISOString()])).toEqual([
      ['Ann', 'Weekly', '2026-10-19T07:00:00.000Z', '2026-10-24T07:00:00.000Z'],
      // The only person in the top layer: one stretch on call, not a row per 12-hour turn; it runs
      // to the end of the turn under way when the two weeks end.
      ['Contractor', 'Weekend cover', '2026-10-24T07:00:00.000Z', '2026-11-07T08:00:00.000Z'],
    ]);
    expect(previewOf({ ...twoLayers(), timezone: 'Nowhere' }, new Date())).toMatchObject({
      error: expect.any(String),
    });
  });

  it('starts a new schedule with one weekly layer from the next Monday at 09:00', () => {
    const form = emptyScheduleForm(new Date('2026-11-24T18:00:00Z'), 'Europe/Berlin'); // a Tuesday
    expect(form.layers).toHaveLength(1);
    expect(form.layers[0]).toMatchObject({ rotationStart: '2026-11-30T09:00', preset: 'weekly' });
    expect(emptyLayer(new Date('2026-11-30T10:00:00Z'), 'UTC', 1)).toMatchObject({
      name: 'Layer 2',
      rotationStart: '2026-12-07T09:00',
    });
  });
});
