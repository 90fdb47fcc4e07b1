import { describe, expect, it } from 'vitest';
import { cachedSingleFlight } from './single-flight';

/** A computation that counts its runs, answers its run number, and fails while `failing` is set. */
function counted() {
  const state = { runs: 0, failing: false };
  const compute = async () => {
    state.runs += 1;
    if (state.failing) throw new Error('database down');
    return state.runs;
  };
  return { state, compute };
}

describe('the public status kept per process', () => {
  it('is computed once for 100 requests within 10 s, then again with what changed', async () => {
    let now = 1_000_000;
    const { state, compute } = counted();
    const cache = cachedSingleFlight(compute, { ttlMs: 10_000, now: () => now });
    const answers: number[] = [];
    // Some at once (sharing the computation in flight), the rest spread over the 10 s.
    answers.push(...(await Promise.all(Array.from({ length: 10 }, () => cache.get()))));
    for (let i = 0; i < 90; i += 1) {
      now += 100;
      answers.push(await cache.get());
    }
    expect(now - 1_000_000).toBeLessThan(10_000);
    expect(state.runs).toBe(1);
    expect(new Set(answers)).toEqual(new Set([1]));
    now = 1_000_000 + 10_000;
    expect(await cache.get()).toBe(2);
    expect(state.runs).toBe(2);
    expect(cache.last()).toEqual({ value: 2, at: now });
  });

  it('keeps the last good answer when a refresh fails, and tries again on the next request', async () => {
    let now = 0;
    const { state, compute } = counted();
    const cache = cachedSingleFlight(compute, { ttlMs: 10_000, now: () => now });
    expect(cache.last()).toBeUndefined();
    expect(await cache.get()).toBe(1);
    state.failing = true;
    now = 10_000;
    await expect(Promise.all([cache.get(), cache.get()])).rejects.toThrow('database down');
    expect(state.runs).toBe(2);
    expect(cache.last()).toEqual({ value: 1, at: 0 });
    await expect(cache.get()).rejects.toThrow('database down');
    expect(state.runs).toBe(3);
    state.failing = false;
    expect(await cache.get()).toBe(4);
    expect(cache.last()).toEqual({ value: 4, at: 10_000 });
  });
});
