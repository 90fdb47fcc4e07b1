import { describe, expect, it } from 'vitest';
import { analyticsQuery, daysIn, lastDays, presetOf, rangeOf } from './analytics-range';

const NOW = Date.parse('2026-11-25T00:30:00Z');

describe('the analytics range', () => {
  it('the last N days end today (UTC), both ends included', () => {
    expect(lastDays(7, NOW)).toEqual({ from: '2026-11-19', to: '2026-11-25' });
    expect(daysIn(lastDays(90, NOW))).toBe(90);
  });

  it('asks the API for the day after the last day shown, its end being exclusive', () => {
    expect(analyticsQuery({ from: '2026-11-01', to: '2026-11-30' }, '')).toBe(
      'from=2026-11-01&to=2026-12-01',
    );
    expect(analyticsQuery({ from: '2026-11-01', to: '2026-11-01' }, ' team ')).toBe(
      'from=2026-11-01&to=2026-11-02&group_by=team',
    );
  });

  it('falls back to the last 30 days for a missing or malformed end', () => {
    expect(rangeOf('', 'nonsense', NOW)).toEqual({ from: '2026-10-27', to: '2026-11-25' });
    expect(rangeOf('2026-11-01', '', NOW)).toEqual({ from: '2026-11-01', to: '2026-11-25' });
  });

  it('recognises a preset, and nothing else', () => {
    expect(presetOf(lastDays(7, NOW), NOW)).toBe(7);
    expect(presetOf({ from: '2026-11-01', to: '2026-11-25' }, NOW)).toBeNull();
  });
});
