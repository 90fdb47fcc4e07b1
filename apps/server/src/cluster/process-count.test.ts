import { loadConfig } from '@firebreak/config';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HTTP_PROCESSES_CAP, httpProcessCount } from './process-count';
import { replacementDelayMs } from './replacement-delay';

describe('HTTP_PROCESSES', () => {
  it('defaults to one process per core, up to the cap', () => {
    const unset = loadConfig({}).httpProcesses;
    expect(unset).toBeUndefined();
    expect(httpProcessCount(unset, 1)).toBe(1);
    expect(httpProcessCount(unset, 2)).toBe(2);
    expect(httpProcessCount(unset, 64)).toBe(DEFAULT_HTTP_PROCESSES_CAP);
  });

  it('takes a configured count as it is, the cap applying to the default only', () => {
    expect(httpProcessCount(loadConfig({ HTTP_PROCESSES: '1' }).httpProcesses, 8)).toBe(1);
    expect(httpProcessCount(loadConfig({ HTTP_PROCESSES: '6' }).httpProcesses, 2)).toBe(6);
    expect(httpProcessCount(loadConfig({ HTTP_PROCESSES: '' }).httpProcesses, 2)).toBe(2);
  });

  it('refuses a count that is not a whole number from 1 to 64, naming the variable', () => {
    for (const value of ['0', '-1', '2.5', 'many', '65']) {
      expect(() => loadConfig({ HTTP_PROCESSES: value }), value).toThrow(/HTTP_PROCESSES/);
    }
  });
});

describe('replacing a crashed HTTP process', () => {
  it('waits longer after each crash in a row, up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map(replacementDelayMs)).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });
});
