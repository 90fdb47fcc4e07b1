import { describe, expect, it } from 'vitest';
import { toLocalInput } from '../maintenance/maintenance-form';
import { coverNote, layerPeople, unavailabilityInputOf } from './unavailability-form';

const layer = (participants: Array<{ user_id: string | null; name: string }>) => ({
  name: 'L',
  order_index: 0,
  rotation_start: '2027-01-04T09:00:00Z',
  shift_duration_seconds: 86_400,
  rotation_type: 'daily' as const,
  participants,
});

describe('unavailability form', () => {
  it('offers each layer participant with an account once, by name', () => {
    const people = layerPeople({
      layers: [
        layer([
          { user_id: 'b', name: 'Ben' },
          { user_id: null, name: 'Kept name' },
        ]),
        layer([
          { user_id: 'a', name: 'Ana' },
          { user_id: 'b', name: 'Ben' },
        ]),
      ],
    });
    expect(people).toEqual([
      { id: 'a', name: 'Ana' },
      { id: 'b', name: 'Ben' },
    ]);
  });

  it('sends local times as instants and refuses a reversed range or nobody', () => {
    const start = new Date(2027, 0, 4, 9, 0);
    const end = new Date(2027, 0, 5, 9, 0);
    const form = { userId: 'a', startsAt: toLocalInput(start), endsAt: toLocalInput(end) };
    expect(unavailabilityInputOf(form)).toEqual({
      input: { user_id: 'a', starts_at: start.toISOString(), ends_at: end.toISOString() },
    });
    expect(unavailabilityInputOf({ ...form, endsAt: form.startsAt })).toEqual({
      error: 'The end must be after the start.',
    });
    expect(unavailabilityInputOf({ ...form, userId: '' })).toEqual({ error: 'Choose who is unavailable.' });
    expect(unavailabilityInputOf({ ...form, endsAt: '' })).toEqual({ error: 'Give a start and an end.' });
  });

  it('says who a covering shift covers for', () => {
    expect(coverNote({ covering_for: { name: 'Ana Alves', reason: 'unavailable' } })).toBe(
      'covers for Ana Alves (unavailable)',
    );
    expect(coverNote({})).toBeNull();
  });
});
