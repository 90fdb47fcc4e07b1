import {
  escalationNextTier,
  escalations,
  incidents,
  notificationRules,
  outbox,
  type Queryable,
  timeline,
} from '@firebreak/db';
import { nextEscalationStep } from '@firebreak/domain';
import { type Actor, AppError, type Incident } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { chatJobs } from '../incidents/chat-jobs';
import { presentIncident } from '../incidents/present';
import { incidentNotFound } from '../incidents/ref';
import { wakeOutboxRelay } from '../outbox/wake-relay';
import { queueWebhookEvent } from '../outgoing-webhooks/queue-event';
import type { PagedTarget } from '../paging/schedule-pages';
import { pageStepTargets } from './page-step-targets';
import { reportFired } from './report-fired';
import { firingTargets } from './targets';

export type EscalatedIncident = Incident & { escalated_to_tier: number };

export interface EscalateOptions {
  /**
   * The tier (1-based) the caller saw as next to page: the incident's `next_tier`, the card button's
   * value. When the escalation has moved past it, somebody else just escalated (a double click, two
   * people at once): 409 `conflict` and nobody is paged. Omitted (`/incident escalate` typed by hand):
   * the next tier, whichever it is.
   */
  expectedTier?: number | undefined;
  /** Whether chat is on (`CHAT_BOT_TOKEN`): an acknowledged incident's helpers are paged only through it. */
  chat: boolean;
}

/**
 * `POST /api/v1/incidents/{id}/escalate`, the card's Escalate button and `/incident escalate`
 * (docs/api.md#manual-escalation): the next tier of the incident's policy is paged now.
 *
 * - Triggered: the step fires as the timer would have, and the following tier's timer counts from now.
 * - Acknowledged ("I need help"): the next tier is paged once, through chat, and no timer restarts;
 *   asking again pages the tier after it.
 * - Resolved: 409 `incident_not_open`. No policy, or its last tier already paged (and it does not
 *   repeat): 409 `no_next_tier`. Acknowledged and nobody of the tier reachable by chat (chat off, or no
 *   chat user id): 409 `no_reachable_target`, rather than a success that pages nobody.
 * - `expectedTier` passed and the escalation moved past it: 409 `conflict`.
 *
 * It takes the incident's row and then its escalation's, the order every other writer takes them, and
 * claims the step by its primary key like the timers: a timer firing at the same instant either fired
 * this tier first (this call then pages the one after it) or finds the deadline moved; no tier is
 * paged twice.
 */
export async function escalateNow(
  ctx: ServiceContext,
  actor: Actor,
  ref: incidents.IncidentRef,
  options: EscalateOptions,
): Promise<EscalatedIncident> {
  const fired = await ctx.sql.begin(async (tx) => {
    const incident = await incidents.lockIncident(tx, ref);
    if (!incident) throw incidentNotFound(ref);
    if (incident.status === 'resolved') {
      throw new AppError('incident_not_open', `Incident #${incident.number} is resolved; nobody is paged.`);
    }
    const row = await escalations.lockEscalation(tx, incident.id);
    const now = ctx.now();
    checkExpectedTier(incident, row, options.expectedTier);
    const step = await planManualStep(tx, incident, row, now);
    const helping = incident.status === 'acknowledged';
    if (helping) checkReachableByChat(incident, step, options.chat);
    if (
      !(await escalations.claimStep(tx, {
        incidentId: incident.id,
        round: step.round,
        tier: step.tier,
        dueAt: now,
        firedAt: now,
        targets: step.targets,
      }))
    ) {
      throw new AppError('conflict', 'That tier was paged a moment ago; try again.');
    }
    await escalations.advanceEscalation(tx, incident.id, { ...step.next, at: now });
    const paged = helping
      ? // Personal pages (e-mail, SMS, calls) stop once an incident is taken (docs/paging.md):
        // an acknowledged incident's helpers are paged through chat only.
        step.targets
      : await pagePersonally(ctx, tx, { incidentId: incident.id, ...step }, now);
    const entry = await timeline.insertTimelineEntry(tx, {
      incidentId: incident.id,
      type: 'escalation_triggered',
      actor,
      data: {
        policy: { id: step.policy.id, name: step.policy.name },
        tier: step.tier + 1,
        round: step.round + 1,
        targets: paged,
        late_by_ms: 0,
        manual: true,
        // The chat page of this step is sent although the incident is taken (escalation-notice.ts):
        // someone asked for help. A step taken while triggered and acknowledged before chat delivered
        // it is a late page like any other, and is skipped.
        ...(helping ? { while_acknowledged: true } : {}),
      },
      at: now,
    });
    await outbox.insertOutboxRows(tx, [chatJobs.escalationNotice(incident.id, entry.id)]);
    await queueWebhookEvent(tx, 'incident.escalated', incident.id, now);
    return { incidentId: incident.id, tier: step.tier + 1, round: step.round + 1, targets: step.targets };
  });
  wakeOutboxRelay(ctx);
  reportFired(ctx, [{ ...fired, lateMs: 0 }]);
  const view = await incidents.findIncidentView(ctx.sql, { id: fired.incidentId });
  return { ...presentIncident(view!), escalated_to_tier: fired.tier };
}

interface ManualStep {
  policy: escalations.FiringPolicy;
  tier: number;
  round: number;
  targets: PagedTarget[];
  next: { tier: number; round: number; dueAt: Date | null; stoppedReason: string | null };
}

/** Stopped for these reasons, an escalation has no tier left to page. */
const FINISHED = new Set<string>(escalationNextTier.FINISHED_REASONS);

/** The tier a manual escalation would page now (1-based), as the incident's `next_tier` shows it. */
function nextTierOf(row: escalations.EscalationRow | undefined): number | null {
  if (!row) return null;
  if (row.next_due_at === null && row.stopped_reason && FINISHED.has(row.stopped_reason)) return null;
  return row.next_tier + 1;
}

/** Someone escalated since the caller looked: their tier was paged, so this request pages nothing. */
function checkExpectedTier(
  incident: incidents.IncidentRow,
  row: escalations.EscalationRow | undefined,
  expected: number | undefined,
): void {
  if (expected === undefined) return;
  const next = nextTierOf(row);
  if (next === expected) return;
  const now = next === null ? 'no tier is left' : `tier ${next} is next`;
  throw new AppError(
    'conflict',
    `Tier ${expected} was already paged: someone escalated incident #${incident.number} a moment ago, ` +
      `so this request paged nobody (${now}).`,
  );
}

/** An acknowledged incident's step pages through chat only: someone of the tier must be reachable there. */
function checkReachableByChat(incident: incidents.IncidentRow, step: ManualStep, chat: boolean): void {
  const tier = step.tier + 1;
  if (!chat) {
    throw new AppError(
      'no_reachable_target',
      `Incident #${incident.number} is acknowledged, so tier ${tier} would be paged through chat only, ` +
        'and chat is off (neither Slack nor Teams is configured). Nobody was paged; call them directly.',
    );
  }
  if (!step.targets.some((target) => target.slack_user_id || target.teams_user_id)) {
    throw new AppError(
      'no_reachable_target',
      `Incident #${incident.number} is acknowledged, so tier ${tier} would be paged through chat only, ` +
        'and nobody on it has a chat user id (slack_user_id or teams_user_id). Nobody was paged; call them directly.',
    );
  }
}

async function planManualStep(
  tx: Queryable,
  incident: incidents.IncidentRow,
  row: escalations.EscalationRow | undefined,
  now: Date,
): Promise<ManualStep> {
  const none = (why: string) => new AppError('no_next_tier', `Incident #${incident.number} ${why}.`);
  if (!row) throw none('has no escalation policy');
  if (row.next_due_at === null && row.stopped_reason && FINISHED.has(row.stopped_reason)) {
    throw none('has already paged the last tier of its escalation policy');
  }
  const [policy] = await escalations.findFiringPolicies(tx, [row.policy_id]);
  const tier = policy?.enabled ? policy.tiers[row.next_tier] : undefined;
  if (!policy || !tier) throw none('has no tier left to page (its policy was disabled or changed)');
  const after = nextEscalationStep(
    { tier: row.next_tier, round: row.round },
    { tierCount: policy.tiers.length, repeat: policy.repeat },
    tier.timeout_seconds,
    now,
  );
  const running = incident.status === 'triggered';
  return {
    policy,
    tier: row.next_tier,
    round: row.round,
    targets: await firingTargets(tx, tier, now),
    next: {
      tier: after.tier,
      round: after.round,
      // Triggered: the following tier's timer counts from now. Acknowledged: no timer restarts.
      dueAt: running && after.kind === 'next' ? after.dueAt : null,
      stoppedReason: after.kind === 'done' ? after.stoppedReason : running ? null : row.stopped_reason,
    },
  };
}

/** A triggered incident's step pages people by their own rules, as a timer's step does. */
async function pagePersonally(
  ctx: ServiceContext,
  tx: Queryable,
  step: { incidentId: string; tier: number; round: number; targets: PagedTarget[] },
  now: Date,
): Promise<PagedTarget[]> {
  const ids = [...new Set(step.targets.flatMap((t) => (t.id ? [t.id] : [])))];
  const rules = await notificationRules.listRulesOf(tx, ids);
  const [paged] = await pageStepTargets(tx, [{ ...step, firedAt: now }], rules, ctx.logger);
  return paged ?? step.targets;
}
