import { escalationPolicies, escalations, incidents, outbox, timeline } from '@firebreak/db';
import { nextEscalationStep } from '@firebreak/domain';
import type { ServiceContext } from '../context';
import { chatJobs } from '../incidents/chat-jobs';
import { queueWebhookEvent } from '../outgoing-webhooks/queue-event';
import { schedulePersonalPages } from '../paging/schedule-pages';
import { type EscalationTarget, resolveTargets } from './targets';

export interface EscalationOutcome {
  /** Whether this call notified a tier. */
  fired: boolean;
  /** When the escalation is next due (for the wake-up job), or null when it has stopped. */
  nextDueAt: Date | null;
  /** Identifies the next step, for a deterministic wake-up job id. */
  nextStep: { round: number; tier: number } | null;
}

const idle = (row?: { next_due_at: Date | null; round: number; next_tier: number }): EscalationOutcome => ({
  fired: false,
  nextDueAt: row?.next_due_at ?? null,
  nextStep: row?.next_due_at ? { round: row.round, tier: row.next_tier } : null,
});

/**
 * Fires an incident's escalation step if — and only if — its deadline has passed and the incident is
 * still triggered (docs/architecture.md#timers-are-rows). The deadline is a row; this is called by the
 * wake-up job at the deadline, by the reconciler when a job went missing, and possibly twice at once: the row
 * locks and the step claim make sure each step notifies once. Locks are taken incident first, then
 * escalation, the same order an acknowledgement takes them, so the two never deadlock.
 */
export async function runEscalation(ctx: ServiceContext, incidentId: string): Promise<EscalationOutcome> {
  const outcome = await ctx.sql.begin(async (tx) => {
    const now = ctx.now();
    const incident = await incidents.lockIncidentStatus(tx, incidentId);
    const row = await escalations.lockEscalation(tx, incidentId);
    if (!incident || !row?.next_due_at) return { outcome: idle(row) };
    if (incident.status !== 'triggered') {
      await escalations.stopEscalation(tx, incidentId, incident.status, now);
      return { outcome: idle() };
    }
    if (row.next_due_at > now) return { outcome: idle(row) };

    const policy = await escalationPolicies.findPolicy(tx, row.policy_id);
    const tier = policy?.enabled ? policy.tiers[row.next_tier] : undefined;
    if (!policy || !tier) {
      await escalations.stopEscalation(tx, incidentId, policy ? 'no tiers' : 'policy gone', now);
      return { outcome: idle() };
    }
    const targets = await resolveTargets(tx, tier, now);
    const claimed = await escalations.claimStep(tx, {
      incidentId,
      round: row.round,
      tier: row.next_tier,
      dueAt: row.next_due_at,
      firedAt: now,
      targets,
    });
    const next = nextEscalationStep(
      { tier: row.next_tier, round: row.round },
      { tierCount: policy.tiers.length, repeat: policy.repeat },
      tier.timeout_seconds,
      now,
    );
    const nextDueAt = next.kind === 'next' ? next.dueAt : null;
    await escalations.advanceEscalation(tx, incidentId, {
      tier: next.tier,
      round: next.round,
      dueAt: nextDueAt,
      stoppedReason: next.kind === 'done' ? next.stoppedReason : null,
      at: now,
    });
    if (!claimed)
      return { outcome: idle({ next_due_at: nextDueAt, round: next.round, next_tier: next.tier }) };

    // The step's personal pages, in the transaction of its claim (docs/paging.md#timers).
    const paged = await schedulePersonalPages(
      tx,
      { incidentId, round: row.round, tier: row.next_tier, firedAt: now, targets },
      ctx.logger,
    );
    const entry = await timeline.insertTimelineEntry(tx, {
      incidentId,
      type: 'escalation_triggered',
      actor: { type: 'system', name: 'escalation' },
      data: {
        policy: { id: policy.id, name: policy.name },
        tier: row.next_tier + 1,
        round: row.round + 1,
        targets: paged,
        late_by_ms: now.getTime() - row.next_due_at.getTime(),
      },
      at: now,
    });
    await outbox.insertOutboxRows(tx, [chatJobs.escalationNotice(incidentId, entry.id)]);
    await queueWebhookEvent(tx, 'incident.escalated', incidentId, now);
    return {
      outcome: {
        fired: true,
        nextDueAt,
        nextStep: nextDueAt ? { round: next.round, tier: next.tier } : null,
      },
      log: {
        targets,
        tier: row.next_tier + 1,
        round: row.round + 1,
        lateMs: now.getTime() - row.next_due_at.getTime(),
      },
    };
  });
  if (outcome.log) {
    ctx.metrics.escalationsFired.inc();
    ctx.logger.info(
      {
        incident_id: incidentId,
        tier: outcome.log.tier,
        round: outcome.log.round,
        targets: outcome.log.targets.map((t: EscalationTarget) => t.id ?? t.name),
        late_by_ms: outcome.log.lateMs,
      },
      'escalation_triggered',
    );
  }
  return outcome.outcome;
}

/** The reconciler's pass (and the clock-driven tests'): every escalation whose deadline has passed. */
export async function runDueEscalations(ctx: ServiceContext, limit = 500): Promise<number> {
  let fired = 0;
  for (const incidentId of await escalations.listDueEscalations(ctx.sql, ctx.now(), limit)) {
    if ((await runEscalation(ctx, incidentId)).fired) fired += 1;
  }
  return fired;
}
