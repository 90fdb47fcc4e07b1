import type { IncidentStatus } from '@firebreak/schema';

/**
 * The incident state machine (docs/api.md#state-machine): triggered → acknowledged → resolved, and
 * triggered → resolved directly (bulk resolution). Nothing leaves `resolved`; there is no way back.
 */
const allowedMoves: Record<IncidentStatus, readonly IncidentStatus[]> = {
  triggered: ['acknowledged', 'resolved'],
  acknowledged: ['resolved'],
  resolved: [],
};

export type StatusChange =
  | { kind: 'none' }
  | { kind: 'move'; from: IncidentStatus; to: IncidentStatus }
  | { kind: 'invalid'; from: IncidentStatus; to: IncidentStatus };

/** Asking for the status an incident already has is not a change (a PATCH to it is a no-op). */
export function planStatusChange(from: IncidentStatus, to: IncidentStatus): StatusChange {
  if (from === to) return { kind: 'none' };
  return allowedMoves[from].includes(to) ? { kind: 'move', from, to } : { kind: 'invalid', from, to };
}

/** MTTR in whole seconds (resolved_at − created_at), never negative. */
export function mttrSeconds(createdAt: Date, resolvedAt: Date): number {
  return Math.max(0, Math.floor((resolvedAt.getTime() - createdAt.getTime()) / 1000));
}
