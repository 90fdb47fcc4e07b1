import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatDueDate, isOverdue, utcToday } from './due-dates';

// Node reads TZ again when it changes: the reader is somewhere the local day is not the UTC day.
const originalTz = process.env.TZ;
beforeEach(() => {
  process.env.TZ = 'Australia/Sydney';
});
afterEach(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

describe('utcToday', () => {
  it('is the UTC calendar day, padded, wherever the reader is', () => {
    // 10:30 on 6 January in Sydney is still the 5th in UTC.
    const sydneyMorning = new Date('2027-01-05T23:30:00Z');
    expect(sydneyMorning.getDate()).toBe(6);
    expect(utcToday(sydneyMorning)).toBe('2027-01-05');
    expect(utcToday(new Date('2027-11-25T00:00:00Z'))).toBe('2027-11-25');
  });
});

describe('isOverdue', () => {
  const today = '2027-03-12';
  it('is an open item due before today', () => {
    expect(isOverdue({ status: 'open', due_date: '2027-03-11' }, today)).toBe(true);
  });
  it('is not an item due today or later, one without a due date, or one done', () => {
    expect(isOverdue({ status: 'open', due_date: today }, today)).toBe(false);
    expect(isOverdue({ status: 'open', due_date: '2027-04-01' }, today)).toBe(false);
    expect(isOverdue({ status: 'open', due_date: null }, today)).toBe(false);
    expect(isOverdue({ status: 'done', due_date: '2020-01-01' }, today)).toBe(false);
  });
});

describe('formatDueDate', () => {
  it('shows the day given, whatever the time zone', () => {
    expect(formatDueDate('2027-03-12')).toMatch(/12/);
    expect(formatDueDate('2027-03-12')).toMatch(/2027/);
  });
});
