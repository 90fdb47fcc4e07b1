/** Where a running escalation stands: the tier it notifies next, in which round (both from 0). */
export interface EscalationPosition {
  tier: number;
  round: number;
}

/** The parts of a policy that decide what follows a tier. */
export interface EscalationPolicyShape {
  /** How many tiers the policy has. */
  tierCount: number;
  /** How many times the whole policy runs again after its last tier (0: once through). */
  repeat: number;
}

export type NextEscalationStep =
  | { kind: 'next'; tier: number; round: number; dueAt: Date }
  | { kind: 'done'; tier: number; round: number; stoppedReason: 'all tiers notified' };

/**
 * What follows a tier that has just been notified at `now`: the next tier once this tier's timeout has
 * passed; after the last tier, the first tier of the next round while the policy repeats; then done
 * (the position stays on the last step, for whoever reads the row).
 */
export function nextEscalationStep(
  fired: EscalationPosition,
  policy: EscalationPolicyShape,
  timeoutSeconds: number,
  now: Date,
): NextEscalationStep {
  const dueAt = new Date(now.getTime() + timeoutSeconds * 1000);
  if (fired.tier + 1 < policy.tierCount)
    return { kind: 'next', tier: fired.tier + 1, round: fired.round, dueAt };
  if (fired.round < policy.repeat) return { kind: 'next', tier: 0, round: fired.round + 1, dueAt };
  return { kind: 'done', tier: fired.tier, round: fired.round, stoppedReason: 'all tiers notified' };
}
