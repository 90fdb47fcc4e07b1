import { describe, expect, it } from 'vitest';
import { isValidTimeZone, parseZonedDateTime } from './wall-clock';

describe('parseZonedDateTime', () => {
  it('reads a time without offset as wall-clock time in the zone', () => {
    expect(parseZonedDateTime('2026-03-30T09:00', 'Europe/Berlin').toISOString()).toBe(
      '2026-03-30T07:00:00.000Z',
    );
    expect(parseZonedDateTime('2026-01-05T09:00:00', 'America/New_York').toISOString()).toBe(
      '2026-01-05T14:00:00.000Z',
    );
  });

  it('takes a time with an offset as that instant, whatever the zone', () => {
    expect(parseZonedDateTime('2026-03-30T09:00:00+02:00', 'America/New_York').toISOString()).toBe(
      '2026-03-30T07:00:00.000Z',
    );
    expect(parseZonedDateTime('2026-03-30T09:00:00.000Z', 'Europe/Berlin').toISOString()).toBe(
      '2026-03-30T09:00:00.000Z',
    );
  });

  it('moves a skipped wall time to the jump, and takes the first of a repeated one', () => {
    expect(parseZonedDateTime('2026-03-29T02:30', 'Europe/Berlin').toISOString()).toBe(
      '2026-03-29T01:00:00.000Z',
    );
    expect(parseZonedDateTime('2026-10-25T02:30', 'Europe/Berlin').toISOString()).toBe(
      '2026-10-25T00:30:00.000Z',
    );
    // Lord Howe Island moves its clocks by half an hour.
    expect(parseZonedDateTime('2026-10-04T02:15', 'Australia/Lord_Howe').toISOString()).toBe(
      '2026-10-03T15:30:00.000Z',
    );
  });

  it('refuses what it cannot read', () => {
    expect(() => parseZonedDateTime('yesterday', 'UTC')).toThrow(RangeError);
    expect(() => parseZonedDateTime('2026-01-01T00:00', 'Nowhere/Atall')).toThrow(RangeError);
  });
});

describe('isValidTimeZone', () => {
  it('knows IANA zones and refuses made-up ones', () => {
    expect(isValidTimeZone('Europe/Berlin')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});
