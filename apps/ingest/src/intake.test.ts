import { AppError } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import { IntakeGate } from './intake';

describe('IntakeGate', () => {
  it('answers 503 with a retry hint beyond its limit, and lets work in again as it finishes', async () => {
    const gate = new IntakeGate(2);
    let release: () => void = () => {};
    const blocker = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = gate.run(() => blocker.then(() => 'first'));
    const second = gate.run(() => blocker.then(() => 'second'));
    const refused = await gate.run(async () => 'third').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: 'service_unavailable',
      status: 503,
      details: { retry_after_seconds: 1 },
    });
    release();
    expect(await Promise.all([first, second])).toEqual(['first', 'second']);
    expect(await gate.run(async () => 'after')).toBe('after');
  });

  it('frees its slot when the work fails', async () => {
    const gate = new IntakeGate(1);
    await expect(gate.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(async () => 'ok')).toBe('ok');
  });
});
