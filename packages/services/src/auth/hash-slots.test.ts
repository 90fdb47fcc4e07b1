import { describe, expect, it } from 'vitest';
import { HashSlots } from './hash-slots';

/** A piece of work that ends when the test says so. */
function held(): { work: () => Promise<void>; finish: () => void } {
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { work: () => done, finish };
}

describe('HashSlots', () => {
  it('runs up to its limit at once and refuses the next with 503 and Retry-After after waiting', async () => {
    const slots = new HashSlots(2, 20);
    const a = held();
    const b = held();
    const running = [slots.run(a.work), slots.run(b.work)];
    await expect(slots.run(async () => 'third')).rejects.toMatchObject({
      code: 'service_unavailable',
      details: { retry_after_seconds: 1 },
    });
    a.finish();
    b.finish();
    await Promise.all(running);
    expect(await slots.run(async () => 'free again')).toBe('free again');
  });

  it('hands a freed slot to a waiter instead of refusing it', async () => {
    const slots = new HashSlots(1, 60_000);
    const first = held();
    const running = slots.run(first.work);
    const waiting = slots.run(async () => 'waited');
    first.finish();
    await running;
    expect(await waiting).toBe('waited');
  });

  it('lets bulk work wait as long as it takes, past the wait that refuses a login', async () => {
    const slots = new HashSlots(1, 20);
    const first = held();
    const running = slots.run(first.work);
    const patient = slots.run(async () => 'waited', Number.POSITIVE_INFINITY);
    await expect(slots.run(async () => 'login')).rejects.toMatchObject({ code: 'service_unavailable' });
    first.finish();
    await running;
    expect(await patient).toBe('waited');
  });
});
