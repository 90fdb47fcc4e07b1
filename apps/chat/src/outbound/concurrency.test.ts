import { describe, expect, it } from 'vitest';
import { chatConcurrency } from './concurrency';

describe('chatConcurrency', () => {
  it('keeps the requested number when the pool has a connection to spare', () => {
    expect(chatConcurrency(8, 25)).toBe(8);
    expect(chatConcurrency(8, 9)).toBe(8);
  });

  it('leaves one connection of the pool to the rest of the process', () => {
    expect(chatConcurrency(8, 8)).toBe(7);
    expect(chatConcurrency(8, 5)).toBe(4);
  });

  it('runs one job at a time with a pool of one or two', () => {
    expect(chatConcurrency(8, 2)).toBe(1);
    expect(chatConcurrency(8, 1)).toBe(1);
  });
});
