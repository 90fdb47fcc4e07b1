import { describe, expect, it } from 'vitest';
import { coverSpanOf } from './cover-window';

describe('covering a shift', () => {
  const shift = { starts_at: '2026-11-24T09:00:00.000Z', ends_at: '2026-11-25T09:00:00.000Z' };

  it('covers a running shift from now on, never backdated', () => {
    expect(coverSpanOf(shift, new Date('2026-11-24T15:30:00.000Z'))).toEqual({
      starts_at: '2026-11-24T15:30:00.000Z',
      ends_at: '2026-11-25T09:00:00.000Z',
    });
  });

  it('covers a later shift whole, and offers nothing for one already over', () => {
    expect(coverSpanOf(shift, new Date('2026-11-24T08:00:00.000Z'))).toEqual(shift);
    expect(coverSpanOf(shift, new Date('2026-11-25T09:00:00.000Z'))).toBeUndefined();
  });
});
