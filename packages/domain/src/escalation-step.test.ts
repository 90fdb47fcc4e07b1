import { describe, expect, it } from 'vitest';
import { nextEscalationStep } from './escalation-step';

const now = new Date('2026-03-01T10:00:00Z');
const inFive = new Date('2026-03-01T10:05:00Z');

describe('nextEscalationStep', () => {
  it('moves to the next tier once this tier times out', () => {
    expect(nextEscalationStep({ tier: 0, round: 0 }, { tierCount: 3, repeat: 0 }, 300, now)).toEqual({
      kind: 'next',
      tier: 1,
      round: 0,
      dueAt: inFive,
    });
  });

  it('starts the next round at the first tier after the last one, while the policy repeats', () => {
    expect(nextEscalationStep({ tier: 2, round: 0 }, { tierCount: 3, repeat: 2 }, 300, now)).toEqual({
      kind: 'next',
      tier: 0,
      round: 1,
      dueAt: inFive,
    });
    expect(nextEscalationStep({ tier: 2, round: 1 }, { tierCount: 3, repeat: 2 }, 300, now)).toMatchObject({
      kind: 'next',
      round: 2,
    });
  });

  it('is done after the last tier of the last round, staying on that step', () => {
    expect(nextEscalationStep({ tier: 2, round: 2 }, { tierCount: 3, repeat: 2 }, 300, now)).toEqual({
      kind: 'done',
      tier: 2,
      round: 2,
      stoppedReason: 'all tiers notified',
    });
    expect(nextEscalationStep({ tier: 0, round: 0 }, { tierCount: 1, repeat: 0 }, 60, now).kind).toBe('done');
  });
});
