import { randomUUID } from 'node:crypto';
import { escalations, notificationRules, outbox, outgoingWebhooks, type Queryable } from '@firebreak/db';
import { nextEscalationStep } from '@firebreak/domain';
import type { ServiceContext } from '../context';
import { chatJobs } from '../incidents/chat-jobs';
import { queueWebhookEventFor } from '../outgoing-webhooks/queue-event';
import { pageStepTargets } from './page-step-targets';
import { type EscalationTarget, firingTargets } from './targets';

export interface EscalationOutcome {
  /** Whether this call notified a tier. */
  fired: boolean;
  /** When the escalation is next due, or null when it has stopped. */
  nextDueAt: Date | null;
  /** Identifies the next step. */
  nextStep: { round: number; tier: number } | null;
}

/** An escalation whose row (and its incident, `for share`) the caller's transaction holds. */
export type HeldEscalation = escalations.DueEscalationRow;

/** A step this transaction claimed, for the log line after the commit. */
export interface FiredStep {
  incidentId: string;
  tier: number;
  round: number;
  targets: EscalationTarget[];
  lateMs: number;
}

export const idleOutcome = (row?: {
  next_due_at: Date | null;
  round: number;
  next_tier: number;
}): EscalationOutcome => ({
  fired: false,
  nextDueAt: row?.next_due_at ?? null,
  nextStep: row?.next_due_at ? { round: row.round, tier: row.next_tier } : null,
});

interface PlannedStep {
  row: HeldEscalation;
  policy: escalations.FiringPolicy;
  targets: EscalationTarget[];
  state: escalations.EscalationState;
}

/**
 * Fires the due step of each held escalation whose incident is still triggered, and stops the others
 * (docs/architecture.md#timers-are-rows). However many escalations it is given, each write is one
 * statement for all of them (docs/decisions.md#escalation-timers-under-load). Every step is claimed by
 * its primary key, so a step some other caller already fired notifies nobody twice.
 */
export async function fireHeldSteps(
  ctx: ServiceContext,
  tx: Queryable,
  held: readonly HeldEscalation[],
  now: Date,
): Promise<{ fired: FiredStep[]; outcomes: Map<string, EscalationOutcome> }> {
  const outcomes = new Map<string, EscalationOutcome>();
  const states: escalations.EscalationState[] = [];
  const stop = (row: HeldEscalation, reason: string) => {
    states.push({
      incidentId: row.incident_id,
      tier: row.next_tier,
      round: row.round,
      dueAt: null,
      stoppedReason: reason,
    });
    outcomes.set(row.incident_id, idleOutcome());
  };
  const planned = await planSteps(tx, held, now, stop);
  states.push(...planned.map((p) => p.state));
  for (const p of planned) outcomes.set(p.row.incident_id, idleOutcome(stateRow(p.state)));

  // Independent statements go together: postgres.js pipelines a transaction's concurrent queries, and
  // PostgreSQL runs them in the order sent, so this is one round trip.
  const [claimed, , rules, webhookIds] = await Promise.all([
    escalations.claimSteps(
      tx,
      planned.map((p) => ({
        incidentId: p.row.incident_id,
        round: p.row.round,
        tier: p.row.next_tier,
        dueAt: p.row.next_due_at,
        firedAt: now,
        targets: p.targets,
      })),
    ),
    escalations.setEscalationStates(tx, states, now),
    notificationRules.listRulesOf(tx, targetUserIds(planned)),
    planned.length > 0 ? outgoingWebhooks.lockSubscribedWebhooks(tx, 'incident.escalated') : [],
  ]);
  const fired = planned.filter((p) =>
    claimed.has(escalations.stepKey(p.row.incident_id, p.row.round, p.row.next_tier)),
  );
  if (fired.length > 0) await recordFired(ctx, tx, fired, { rules, webhookIds, now });
  for (const p of fired) outcomes.set(p.row.incident_id, { ...idleOutcome(stateRow(p.state)), fired: true });
  return {
    fired: fired.map((p) => ({
      incidentId: p.row.incident_id,
      tier: p.row.next_tier + 1,
      round: p.row.round + 1,
      targets: p.targets,
      lateMs: now.getTime() - p.row.next_due_at.getTime(),
    })),
    outcomes,
  };
}

const stateRow = (state: escalations.EscalationState) => ({
  next_due_at: state.dueAt,
  round: state.round,
  next_tier: state.tier,
});

/**
 * Each escalation's tier, targets and next state: the policies with their people in one read; a schedule
 * tier also asks who is on call, once per tier and all tiers together.
 */
async function planSteps(
  tx: Queryable,
  held: readonly HeldEscalation[],
  now: Date,
  stop: (row: HeldEscalation, reason: string) => void,
): Promise<PlannedStep[]> {
  const running = held.filter((row) => {
    if (row.status !== 'triggered') stop(row, row.status);
    return row.status === 'triggered';
  });
  if (running.length === 0) return [];
  const policyIds = [...new Set(running.map((row) => row.policy_id))];
  const policies = new Map((await escalations.findFiringPolicies(tx, policyIds)).map((p) => [p.id, p]));
  // Everyone on one tier is paged the same at one instant: each tier is resolved once per batch, all
  // of them together.
  const targetsOfTier = new Map<string, Promise<EscalationTarget[]>>();
  const planned: Array<Omit<PlannedStep, 'targets'> & { targets: Promise<EscalationTarget[]> }> = [];
  for (const row of running) {
    const policy = policies.get(row.policy_id);
    const tier = policy?.enabled ? policy.tiers[row.next_tier] : undefined;
    if (!policy || !tier) {
      stop(row, policy ? 'no tiers' : 'policy gone');
      continue;
    }
    const tierKey = `${policy.id}:${row.next_tier}`;
    const targets = targetsOfTier.get(tierKey) ?? firingTargets(tx, tier, now);
    targetsOfTier.set(tierKey, targets);
    const next = nextEscalationStep(
      { tier: row.next_tier, round: row.round },
      { tierCount: policy.tiers.length, repeat: policy.repeat },
      tier.timeout_seconds,
      now,
    );
    planned.push({
      row,
      policy,
      targets,
      state: {
        incidentId: row.incident_id,
        tier: next.tier,
        round: next.round,
        dueAt: next.kind === 'next' ? next.dueAt : null,
        stoppedReason: next.kind === 'done' ? next.stoppedReason : null,
      },
    });
  }
  return Promise.all(planned.map(async (p) => ({ ...p, targets: await p.targets })));
}

/** The fired steps' personal pages, timeline entries, chat notices and webhook events. */
async function recordFired(
  ctx: ServiceContext,
  tx: Queryable,
  fired: readonly PlannedStep[],
  read: { rules: notificationRules.NotificationRuleRow[]; webhookIds: readonly string[]; now: Date },
): Promise<void> {
  const { rules, webhookIds, now } = read;
  const paged = await pageStepTargets(
    tx,
    fired.map((p) => ({
      incidentId: p.row.incident_id,
      round: p.row.round,
      tier: p.row.next_tier,
      firedAt: now,
      targets: p.targets,
    })),
    rules,
    ctx.logger,
  );
  const entries = fired.map((p, i) => ({
    id: randomUUID(),
    incidentId: p.row.incident_id,
    at: now,
    data: {
      policy: { id: p.policy.id, name: p.policy.name },
      tier: p.row.next_tier + 1,
      round: p.row.round + 1,
      targets: paged[i],
      late_by_ms: now.getTime() - p.row.next_due_at.getTime(),
    },
  }));
  await Promise.all([
    escalations.insertTriggeredEntries(tx, entries),
    outbox.insertOutboxRows(
      tx,
      entries.map((entry) => chatJobs.escalationNotice(entry.incidentId, entry.id)),
    ),
    ...entries.map((entry) =>
      queueWebhookEventFor(tx, webhookIds, 'incident.escalated', entry.incidentId, now),
    ),
  ]);
}

function targetUserIds(planned: readonly PlannedStep[]): string[] {
  const ids = planned.flatMap((p) => p.targets.map((t) => t.id));
  return [...new Set(ids.filter((id): id is string => id !== null))];
}
