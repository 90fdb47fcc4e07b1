import { describe, expect, it } from 'vitest';
import { defaultWindow, fromLocalInput, toLocalInput, windowBody } from './handoff-window';

describe('the hand-off window', () => {
  it('round-trips a local time through the datetime-local format', () => {
    const date = new Date(2027, 2, 12, 8, 5);
    expect(toLocalInput(date)).toBe('2027-03-12T08:05');
    expect(fromLocalInput('2027-03-12T08:05')?.getTime()).toBe(date.getTime());
  });

  it('refuses empty and malformed values', () => {
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('2027-03-12')).toBeNull();
    expect(fromLocalInput('yesterday')).toBeNull();
  });

  it('defaults to the last 12 hours', () => {
    const now = new Date(2027, 2, 12, 20, 30);
    expect(defaultWindow(now)).toEqual({ since: '2027-03-12T08:30', until: '2027-03-12T20:30' });
  });

  it('makes ISO instants for the API, or says what is wrong', () => {
    const body = windowBody('2027-03-12T08:00', '2027-03-12T20:00');
    expect(body).toEqual({
      since: new Date(2027, 2, 12, 8, 0).toISOString(),
      until: new Date(2027, 2, 12, 20, 0).toISOString(),
    });
    expect(windowBody('2027-03-12T20:00', '2027-03-12T08:00')).toEqual({
      problem: 'The start must be before the end.',
    });
    expect(windowBody('', '2027-03-12T08:00')).toEqual({ problem: 'Give both a start and an end.' });
  });
});
