import type { OpsgenieEscalationItem, OpsgenieEscalationRule, OpsgenieTeamItem } from '@firebreak/schema';
import { DEFAULT_TIMEOUT_SECONDS } from '../oncall-import/tiers';
import type {
  ExistingRecords,
  Findings,
  PlannedPerson,
  PlannedPolicy,
  PlannedTier,
} from '../oncall-import/types';
import { type People, resolveUser } from './users';

/**
 * Opsgenie escalations → policies (docs/import-opsgenie.md#what-is-imported-and-how).
 *
 * A rule's delay counts from the alert's creation, while a tier's timeout counts from when that tier was
 * notified: rules at 0, 5 and 15 minutes become tiers with timeouts of 5 and 10 minutes. The last tier
 * waits the repeat's `waitInterval` (else 5 minutes) before the policy repeats. A wait over a week is
 * lowered to a week, with a note.
 */

export const OPSGENIE_POLICY_DESCRIPTION = 'Imported from Opsgenie';
// The most repeats a policy takes, and the longest a tier waits (CreateEscalationPolicyInput): a
// longer wait would write a policy the API itself refuses.
const MAX_REPEAT = 10;
const MAX_TIMEOUT_SECONDS = 7 * 86_400;
const UNIT_MINUTES: Record<string, number> = { minutes: 1, hours: 60, days: 1440 };

export interface EscalationContext {
  people: People;
  /** Opsgenie schedule id → name of the schedule this import creates from it. */
  schedules: ReadonlyMap<string, string>;
  teams: ReadonlyMap<string, OpsgenieTeamItem>;
}

export interface OpsgeniePolicyPlan extends Findings {
  escalationPolicies: PlannedPolicy[];
}

export function delayMinutes(rule: OpsgenieEscalationRule): number {
  const amount = Math.max(0, rule.delay?.timeAmount ?? 0);
  return amount * (UNIT_MINUTES[(rule.delay?.timeUnit ?? 'minutes').toLowerCase()] ?? 1);
}

/** Team name, for the description and warnings. */
export function policyDescription(escalation: OpsgenieEscalationItem): string {
  const team = escalation.ownerTeam?.name?.trim();
  return team ? `${OPSGENIE_POLICY_DESCRIPTION}; team ${team}` : OPSGENIE_POLICY_DESCRIPTION;
}

type TierTarget = Omit<PlannedTier, 'timeoutSeconds'>;

/** One rule → what its tier pages, with what could not be kept as notes; no target → skipped. */
export function ruleTarget(
  rule: OpsgenieEscalationRule,
  context: EscalationContext,
): { target?: TierTarget; notes: string[] } {
  const notes: string[] = [];
  const { recipient } = rule;
  const notifyType = rule.notifyType ?? 'default';
  if (rule.condition === 'if-not-closed') {
    notes.push('if-not-closed: here acknowledging stops the escalation');
  }
  switch (recipient.type) {
    case 'user': {
      const { person, unresolved } = resolveUser(recipient, context.people);
      if (unresolved) {
        notes.push(
          `user ${person.name} is not an imported user (deleted in Opsgenie, or skipped); kept as a name without an account`,
        );
      }
      return { target: { targetType: 'users', users: [person], schedule: null }, notes };
    }
    case 'schedule': {
      const name = recipient.id ? context.schedules.get(recipient.id) : undefined;
      if (!recipient.id || name === undefined) {
        notes.push(
          `schedule ${recipient.name ?? recipient.id ?? '(deleted)'} was not imported; rule skipped`,
        );
        return { notes };
      }
      if (notifyType === 'next' || notifyType === 'previous') {
        notes.push(`notifies the ${notifyType} on-call of ${name} in Opsgenie; here whoever is on call now`);
      } else if (notifyType !== 'default') {
        notes.push(`notifyType ${notifyType} on schedule ${name}; here whoever is on call`);
      }
      return {
        target: { targetType: 'schedule', users: [], schedule: { sourceId: recipient.id, name } },
        notes,
      };
    }
    case 'team': {
      const team = recipient.id ? context.teams.get(recipient.id) : undefined;
      const teamName = team?.name ?? recipient.name ?? recipient.id ?? 'team';
      const members = (team?.members ?? []).filter((m) => notifyType !== 'admins' || m.role === 'admin');
      const users = unique(
        members.map((m) => resolveUser({ type: 'user', ...m.user }, context.people).person),
      );
      if (users.length === 0) {
        notes.push(`team ${teamName} has no member to page; rule skipped`);
        return { notes };
      }
      const who = notifyType === 'admins' ? 'its admins' : 'all its members';
      const how =
        notifyType === 'default' ? 'through the team’s own escalation' : `with notifyType ${notifyType}`;
      notes.push(`team ${teamName}: Opsgenie notifies it ${how}; here ${who} at once (${users.length})`);
      return { target: { targetType: 'users', users, schedule: null }, notes };
    }
    default:
      notes.push(`recipient type ${recipient.type} not imported; rule skipped`);
      return { notes };
  }
}

function unique(people: PlannedPerson[]): PlannedPerson[] {
  const seen = new Set<string>();
  return people.filter((p) => {
    const key = p.email ?? `name:${p.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Rules → tiers, in delay order. Rules due at the same minute that page users become one tier; any other
 * pair due together is paged a minute apart here, with a note.
 */
export function rulesToTiers(
  escalation: OpsgenieEscalationItem,
  context: EscalationContext,
): { tiers: PlannedTier[]; repeat: number; notes: string[] } {
  const notes: string[] = [];
  const ordered = (escalation.rules ?? [])
    .map((rule, index) => ({ rule, index, at: delayMinutes(rule) }))
    .sort((a, b) => a.at - b.at || a.index - b.index);
  const open: Array<{ target: TierTarget; at: number }> = [];
  for (const { rule, index, at } of ordered) {
    const { target, notes: ruleNotes } = ruleTarget(rule, context);
    for (const note of ruleNotes) notes.push(`rule ${index + 1}: ${note}`);
    if (!target) continue;
    const last = open.at(-1);
    if (last && last.at === at && last.target.targetType === 'users' && target.targetType === 'users') {
      last.target.users = unique([...last.target.users, ...target.users]);
      continue;
    }
    if (last && last.at >= at) {
      notes.push(`rule ${index + 1}: due with the rule before it in Opsgenie; here paged 1 minute later`);
      open.push({ target, at: last.at + 1 });
    } else {
      open.push({ target, at });
    }
  }
  const first = open[0];
  if (first && first.at > 0) {
    notes.push(`the first rule waits ${first.at} min in Opsgenie; here tier 1 is paged at once`);
  }
  const repeat = escalation.repeat;
  const count = Math.max(0, repeat?.count ?? 0);
  if (count > MAX_REPEAT)
    notes.push(`repeat count ${count} lowered to ${MAX_REPEAT}, the most a policy takes`);
  if (repeat?.closeAlertAfterAll) {
    notes.push('closeAlertAfterAll not imported: the incident stays open after the last repeat');
  }
  const lastWait =
    repeat?.waitInterval && repeat.waitInterval > 0 ? repeat.waitInterval * 60 : DEFAULT_TIMEOUT_SECONDS;
  const tiers = open.map(({ target, at }, i) => {
    const next = open[i + 1];
    const wait = next ? (next.at - at) * 60 : lastWait;
    if (wait > MAX_TIMEOUT_SECONDS) {
      const what = next ? 'until the next rule' : 'before the repeat';
      notes.push(
        `tier ${i + 1} waits ${wait / 60} min ${what} in Opsgenie; lowered to ${MAX_TIMEOUT_SECONDS / 60} min (7 days), the longest a tier waits here`,
      );
    }
    return { ...target, timeoutSeconds: Math.min(wait, MAX_TIMEOUT_SECONDS) };
  });
  return { tiers, repeat: Math.min(count, MAX_REPEAT), notes };
}

export function planOpsgenieEscalations(
  source: readonly OpsgenieEscalationItem[],
  context: EscalationContext,
  existing: Pick<ExistingRecords, 'policyNames'>,
): OpsgeniePolicyPlan {
  const existingNames = new Set(existing.policyNames);
  const taken = new Set<string>();
  const plan: OpsgeniePolicyPlan = { escalationPolicies: [], conflicts: [], warnings: [] };
  for (const escalation of source) {
    const name = escalation.name.trim() || escalation.id;
    if (existingNames.has(name) || taken.has(name)) {
      plan.conflicts.push({
        kind: 'escalation_policy',
        name,
        reason: taken.has(name)
          ? 'an earlier escalation in this import has the same name'
          : 'an escalation policy with this name already exists',
      });
      continue;
    }
    taken.add(name);
    const { tiers, repeat, notes } = rulesToTiers(escalation, context);
    for (const message of notes) plan.warnings.push({ kind: 'escalation_policy', name, message });
    if (tiers.length === 0) {
      plan.warnings.push({
        kind: 'escalation_policy',
        name,
        message: 'no rule could be imported; the policy pages nobody until tiers are added',
      });
    }
    plan.escalationPolicies.push({
      sourceId: escalation.id,
      name,
      description: policyDescription(escalation),
      enabled: true,
      repeat,
      tiers,
    });
  }
  return plan;
}
