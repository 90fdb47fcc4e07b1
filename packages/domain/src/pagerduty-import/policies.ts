import type { PagerDutyEscalationPolicyItem, PagerDutyEscalationRule } from '@firebreak/schema';
import type {
  ExistingRecords,
  Findings,
  PlannedPerson,
  PlannedPolicy,
  PlannedTier,
} from '../oncall-import/types';
import { type Directory, resolveUser } from './users';

/**
 * PagerDuty escalation policies (docs/import-pagerduty.md#what-is-imported-and-how): each rule one tier, its
 * `escalation_delay_in_minutes` the tier's timeout (the wait after it before the next rule), `num_loops` the
 * policy's repeat. A tier here pages users OR one schedule, so a rule that targets a schedule and users, or
 * several schedules, keeps its first imported schedule and drops the other targets, with a warning.
 */

export const IMPORTED_FROM_PAGERDUTY = 'Imported from PagerDuty';
/** The API's bound on a policy's repeat. */
export const MAX_REPEAT = 10;
const MAX_TIMEOUT_SECONDS = 7 * 86_400;

export interface RuleContext {
  directory: Directory;
  /** PagerDuty schedule id → name of the schedule this import creates from it. */
  schedules: ReadonlyMap<string, string>;
}

export interface PolicyPlan extends Findings {
  escalationPolicies: PlannedPolicy[];
}

const isUser = (type: string) => type === 'user_reference' || type === 'user';
const isSchedule = (type: string) => type === 'schedule_reference' || type === 'schedule';

/** Minutes → seconds, at least a minute (PagerDuty's own minimum), at most a week. */
export function ruleTimeoutSeconds(rule: PagerDutyEscalationRule): number {
  const seconds = Math.round(rule.escalation_delay_in_minutes * 60);
  return Math.min(Math.max(seconds, 60), MAX_TIMEOUT_SECONDS);
}

export function ruleToTier(
  rule: PagerDutyEscalationRule,
  position: number,
  context: RuleContext,
): { tier?: PlannedTier; notes: string[] } {
  const label = `rule ${position}`;
  const notes: string[] = [];
  const users: PlannedPerson[] = [];
  const schedules: Array<{ sourceId: string; name: string }> = [];
  const dropped: string[] = [];
  for (const target of rule.targets) {
    if (isUser(target.type)) {
      const resolved = resolveUser(target, context.directory);
      if (resolved.note) notes.push(`${label}: ${resolved.note}`);
      if (!users.some((u) => u.name === resolved.person.name && u.email === resolved.person.email)) {
        users.push(resolved.person);
      }
    } else if (isSchedule(target.type)) {
      const name = context.schedules.get(target.id);
      if (name === undefined) dropped.push(`schedule ${target.summary ?? target.id} (not imported)`);
      else schedules.push({ sourceId: target.id, name });
    } else {
      dropped.push(`${target.type} ${target.summary ?? target.id}`);
    }
  }
  const timeoutSeconds = ruleTimeoutSeconds(rule);
  const [schedule, ...otherSchedules] = schedules;
  if (schedule) {
    const alsoDropped = [...otherSchedules.map((s) => `schedule ${s.name}`), ...users.map((u) => u.name)];
    if (alsoDropped.length > 0 || dropped.length > 0) {
      notes.push(
        `${label}: pages whoever is on call in ${schedule.name} only; ${[...alsoDropped, ...dropped].join(', ')} dropped (a tier pages users or one schedule)`,
      );
    }
    return { tier: { targetType: 'schedule', users: [], schedule, timeoutSeconds }, notes };
  }
  if (dropped.length > 0) notes.push(`${label}: ${dropped.join(', ')} dropped`);
  if (users.length === 0) {
    notes.push(`${label}: no target could be imported; rule skipped`);
    return { notes };
  }
  return { tier: { targetType: 'users', users, schedule: null, timeoutSeconds }, notes };
}

export function planPagerDutyPolicies(
  source: readonly PagerDutyEscalationPolicyItem[],
  context: RuleContext,
  existing: Pick<ExistingRecords, 'policyNames'>,
): PolicyPlan {
  const existingNames = new Set(existing.policyNames);
  const taken = new Set<string>();
  const plan: PolicyPlan = { escalationPolicies: [], conflicts: [], warnings: [] };
  for (const policy of source) {
    const name = policy.name.trim() || policy.id;
    if (existingNames.has(name) || taken.has(name)) {
      plan.conflicts.push({
        kind: 'escalation_policy',
        name,
        reason: taken.has(name)
          ? 'an earlier escalation policy in this import has the same name'
          : 'an escalation policy with this name already exists',
      });
      continue;
    }
    taken.add(name);
    const warn = (message: string) => plan.warnings.push({ kind: 'escalation_policy', name, message });
    const tiers: PlannedTier[] = [];
    policy.escalation_rules.forEach((rule, index) => {
      const mapped = ruleToTier(rule, index + 1, context);
      for (const message of mapped.notes) warn(message);
      if (mapped.tier) tiers.push(mapped.tier);
    });
    if (tiers.length === 0) warn('no rule could be imported; the policy pages nobody until tiers are added');
    const loops = Math.max(0, policy.num_loops ?? 0);
    if (loops > MAX_REPEAT)
      warn(`num_loops ${loops} lowered to ${MAX_REPEAT}, the most a policy repeats here`);
    plan.escalationPolicies.push({
      sourceId: policy.id,
      name,
      description: IMPORTED_FROM_PAGERDUTY,
      enabled: true,
      tiers,
      repeat: Math.min(loops, MAX_REPEAT),
    });
  }
  return plan;
}
