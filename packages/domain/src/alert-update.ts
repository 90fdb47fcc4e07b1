import { isDeepStrictEqual } from 'node:util';
import type { AlertInput, AlertSeverity, AlertStatus } from '@firebreak/schema';

/** What is known of an alert already stored. */
export interface StoredAlert {
  status: AlertStatus;
  title: string;
  description: string | null;
  severity: AlertSeverity;
  source: string | null;
  labels: Record<string, string>;
  annotations: Record<string, unknown>;
  ended_at: Date | null;
}

/**
 * What a new delivery of a known alert does to it:
 * - `refired`: it was resolved and fires again (it is routed again, and the all-resolved flag of an
 *   open incident it rejoins is cleared);
 * - `resolved`: it was firing and is resolved now (its incident may now have every alert resolved);
 * - `updated`: same status; `unchanged` says whether anything at all differs (re-sent groups mostly
 *   do not, and are then answered without a write).
 */
export interface AlertUpdate {
  kind: 'refired' | 'resolved' | 'updated';
  unchanged: boolean;
  /** When the alert ended: null while it fires; else the sender's time, the stored one, or `at`. */
  endedAt: Date | null;
  /**
   * What the linked incident's `all_alerts_resolved` flag needs: re-counted, cleared, or nothing. The
   * count itself ("does any alert of the incident still fire?") is a query, run under the incident's
   * row lock so that two deliveries resolving its last two alerts cannot both miss it.
   */
  incidentFlag: 'recount' | 'clear' | 'keep';
}

export function planAlertUpdate(stored: StoredAlert, incoming: AlertInput, at: Date): AlertUpdate {
  const kind =
    stored.status === 'resolved' && incoming.status === 'firing'
      ? 'refired'
      : stored.status === 'firing' && incoming.status === 'resolved'
        ? 'resolved'
        : 'updated';
  return {
    kind,
    unchanged: kind === 'updated' && sameContent(stored, incoming),
    endedAt: incoming.status === 'resolved' ? (incoming.endedAt ?? stored.ended_at ?? at) : null,
    incidentFlag: kind === 'resolved' ? 'recount' : kind === 'refired' ? 'clear' : 'keep',
  };
}

function sameContent(stored: StoredAlert, incoming: AlertInput): boolean {
  return (
    stored.status === incoming.status &&
    stored.title === incoming.title &&
    stored.description === incoming.description &&
    stored.severity === incoming.severity &&
    stored.source === incoming.source &&
    isDeepStrictEqual(stored.labels, incoming.labels) &&
    isDeepStrictEqual(stored.annotations, incoming.annotations)
  );
}
