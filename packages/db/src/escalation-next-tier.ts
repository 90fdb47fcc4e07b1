import type { Queryable } from './client';

/** Stopped for these reasons, an escalation has no tier left to page (docs/api.md#manual-escalation). */
export const FINISHED_REASONS = ['all tiers notified', 'policy gone', 'no tiers'] as const;

/**
 * The tier (1-based) a manual escalation of incident `i` would page now, or null when it has no policy
 * or its last tier was paged: the incident's `next_tier`. A client sends it back as `expected_tier`,
 * so two people pressing Escalate at once page one tier, not two.
 */
export const nextTierColumn = (sql: Queryable) => sql`
  (select e.next_tier + 1 from incident_escalations e
   where e.incident_id = i.id
     and not (e.next_due_at is null and e.stopped_reason = any(${FINISHED_REASONS as unknown as string[]})))`;
